// The invitation link of a room: copied with one tap, or shared through the device's own share
// sheet where it has one (phones). Either way the person sees what happened by the button: "✓ Link
// copied", or, when the browser refuses to copy, the link selected for them to copy by hand.

/** How long "✓ Link copied" stays shown. */
const SHOWN_MS = 4000;

/**
 * Wires the invitation's controls: `copy` and `share` (buttons; `share` stays hidden without a
 * share sheet), `link` (the element holding the address), `status` (where the outcome is said,
 * a live region), `t` the page's texts.
 */
export function offerInvite({ copy, share, link, status }, t) {
  let timer = null;
  /** Says `text` by the buttons: for a few seconds, or, when copying was `refused`, until the next try. */
  const say = (text, refused = false) => {
    clearTimeout(timer);
    status.classList.toggle('refused', refused);
    status.textContent = text;
    if (!refused) timer = setTimeout(() => { status.textContent = ''; }, SHOWN_MS);
  };
  copy.onclick = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link.textContent);
      say(`✓ ${t('online.copied')}`);
    } catch {
      // Refused (no permission, no secure context): the link is selected, ready to copy by hand.
      getSelection().selectAllChildren(link);
      say(t('online.copyFailed'), true);
    }
  };
  share.hidden = typeof navigator.share !== 'function';
  share.onclick = async () => {
    try {
      await navigator.share({ title: document.title, text: t('online.shareText'), url: link.textContent });
    } catch (error) {
      // Closing the share sheet is no failure; anything else falls back to copying.
      if (error?.name !== 'AbortError') copy.click();
    }
  };
}
