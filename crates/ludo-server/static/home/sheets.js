// The home screen's sheets: each way to play keeps its options in a modal <dialog> that its button
// opens (`data-sheet`), so that the home screen itself is a few big buttons. A sheet keeps the
// focus inside it, closes with Escape, its × or a tap beside it, and gives the focus back to the
// button that opened it.
// The rules and house rules are one block (`#rules-choice`), shared by the games against the CPU,
// on this device and with friends: it moves into the sheet being opened (its `.rules-slot`). A
// second sheet for the rules, opened over the first, would put the house rules two taps from the
// way to play and ask a phone to show a sheet over a sheet; moved, they stay one block with one
// state, as they were on the home screen, and each sheet shows them beside what they start.

/** The elements a person can reach with Tab in `sheet`, in order. */
function focusable(sheet) {
  return [...sheet.querySelectorAll('button, select, input, a[href], summary, [tabindex]:not([tabindex="-1"])')]
    .filter((node) => !node.disabled && node.getClientRects().length > 0);
}

/** Tab from the last control goes to the first, and Shift+Tab from the first to the last. */
function keepFocusIn(sheet) {
  sheet.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const nodes = focusable(sheet);
    if (!nodes.length) return;
    const [first, last] = [nodes[0], nodes[nodes.length - 1]];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
}

/**
 * Holds a sheet's name field to the longest name the server takes, counted as it counts (loaded
 * when a sheet with a name first opens, not with the home screen).
 */
function holdNames(sheet) {
  const field = sheet.querySelector('input[name=name]:not([data-held])');
  if (!field) return;
  field.dataset.held = 'true';
  Promise.all([import('../room/served.js'), import('../i18n/i18n.js')])
    .then(([{ limitName }, { t }]) => limitName(field, t));
}

/**
 * Sets up the sheets of `home`: each button with `data-sheet` opens the dialog it names, with the
 * rules block `rules` moved into it when it has a place for them. Returns `open(id)`, which opens
 * the sheet `id` ("vs-cpu-sheet"), and `sheetOfRules()`, the sheet the rules block is in now.
 */
export function setUpSheets(home, rules) {
  const open = (id) => {
    const sheet = document.getElementById(id);
    sheet.querySelector('.rules-slot')?.append(rules);
    if (!sheet.open) sheet.showModal();
    holdNames(sheet);
    return sheet;
  };
  for (const button of home.querySelectorAll('[data-sheet]')) {
    button.addEventListener('click', () => open(button.dataset.sheet));
  }
  for (const sheet of home.querySelectorAll('dialog.sheet')) {
    keepFocusIn(sheet);
    sheet.querySelector('.sheet-close').onclick = () => sheet.close();
    // A tap on the dimmed page around the sheet closes it (the backdrop's taps reach the dialog).
    sheet.addEventListener('click', (event) => {
      if (event.target !== sheet) return;
      const box = sheet.getBoundingClientRect();
      const inside = event.clientX >= box.left && event.clientX <= box.right
        && event.clientY >= box.top && event.clientY <= box.bottom;
      if (!inside) sheet.close();
    });
  }
  return { open, sheetOfRules: () => rules.closest('dialog') };
}
