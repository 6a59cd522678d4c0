// The DOM helpers every page uses: an element made with its class and text (text is only
// ever set as text: names and tags are never read as HTML), and text set only when it
// changed (a live region is read out when its words change, and a redraw that changes
// nothing must not make a screen reader say it again).

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
