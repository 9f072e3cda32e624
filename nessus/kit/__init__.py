"""The page kit every dashboard page is built from: the page base (`base.Dashboard`), its parts
(`common`: parameter fields, messages, the chart pane, tables with CSV), the dice tray, hint
table and move buttons of the dice games (`dicegame`), a match played through `nessus.play`
with its log and result line (`match`), and the gallery (`gallery`).

A game's page lives in its folder (`nessus/games/<name>/page.py`, drawing in `views.py`) and
holds only what is its own. Importing a game never imports this kit: only pages do.
"""
