"""The page kit every dashboard page is built from: the page base (`base`), its parts (`common`),
the dice games' tray, seats and move buttons (`dicegame`), the hint and the policies' charts
(`hint`), a match against the machine (`match`) and the gallery (`gallery`). Importing a game
never imports this kit: only its page does."""
