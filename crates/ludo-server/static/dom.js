// The one way the client builds its elements: HTML with properties and children, SVG with
// attributes. Texts always go in as `textContent`, never as markup.

const SVG = 'http://www.w3.org/2000/svg';

/**
 * A new HTML element `tag` with `props` set as its properties (`textContent`, `className`,
 * `href`, `onclick`, …) and `children` (nodes or strings) appended.
 */
export function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** A new SVG element `name` with `attributes`, added at the end of `parent` when given. */
export function svgElement(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  parent?.append(node);
  return node;
}

/**
 * Adds the style sheet at `href` to the page once, for a part of it loaded when needed (a rules
 * page, the replay viewer); resolves once its rules apply, so that nothing shows unstyled.
 */
export function styleSheet(href) {
  const url = new URL(href, location.href).href;
  const present = [...document.querySelectorAll('link[rel=stylesheet]')].find((l) => l.href === url);
  if (present) return present.loaded ?? Promise.resolve();
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: url });
  link.loaded = new Promise((resolve) => {
    link.onload = resolve;
    // A sheet that cannot load (offline, not cached) leaves the page plain rather than blank.
    link.onerror = resolve;
  });
  document.head.append(link);
  return link.loaded;
}

/**
 * Once the page's next frame is on the screen: the frame after it has begun (or a moment, in a tab
 * that is not painting).
 */
export function afterPaint() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve)));
    setTimeout(resolve, 250);
  });
}
