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
