// The dice tray (nessus/kit/dicegame.py DiceTray): one widget drawing a row of dice buttons, each
// with its note below; a click on a die is sent to Python ({click: i}), which answers with the
// new `dice`. The buttons are kept between draws, so a die keeps its focus and its transition.
function render({ model, el }) {
  const row = document.createElement("div");
  row.className = "nessus-tray-row";
  const empty = document.createElement("span");
  empty.className = "nessus-tray-empty";
  row.append(empty);
  el.append(row);
  const slots = [];
  function slot(i) {
    const box = document.createElement("div");
    box.className = "nessus-slot";
    const die = document.createElement("button");
    die.type = "button";
    die.addEventListener("click", () => model.send({ click: i }));
    const note = document.createElement("div");
    note.className = "die-note";
    box.append(die, note);
    row.insertBefore(box, empty);
    return { box, die, note };
  }
  function draw() {
    const dice = model.get("dice");
    dice.forEach((d, i) => {
      const s = slots[i] || (slots[i] = slot(i));
      s.box.style.display = "";
      s.die.className = "jupyter-button widget-button " + d.classes.join(" ");
      s.die.disabled = d.disabled;
      s.die.title = d.title;
      s.die.setAttribute("aria-label", d.title);
      s.note.innerHTML = d.note;
    });
    slots.slice(dice.length).forEach((s) => (s.box.style.display = "none"));
    empty.innerHTML = model.get("empty");
  }
  draw();
  model.on("change:dice", draw);
  model.on("change:empty", draw);
}
export default { render };
