// Small DOM and SVG helpers shared by the board modules.

export const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k === 'class') el.setAttribute('class', v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  return el;
}

// An SVG element with attributes, appended to parent when given.
export function s(tag, attrs, parent) {
  const el = apply(document.createElementNS(SVG_NS, tag), attrs);
  if (parent) parent.appendChild(el);
  return el;
}

// An HTML element with attributes and children (nodes or strings).
export function h(tag, attrs, ...children) {
  const el = apply(document.createElement(tag), attrs);
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

// Keyboard access to a grid of focusable points: one point is in the tab
// order at a time (a roving tabindex); the arrow keys move between points,
// Home/End to the ends of a row, Enter and Space activate.
export class PointGrid {
  constructor(cols, rows, onActivate) {
    this.cols = cols;
    this.rows = rows;
    this.onActivate = onActivate;
    this.cells = [];
    this.col = Math.floor(cols / 2);
    this.row = rows - 1;
  }

  // Registers the element standing for (col, row), in display order.
  add(col, row, el) {
    el.setAttribute('tabindex', col === this.col && row === this.row ? '0' : '-1');
    el.addEventListener('focus', () => this.moveTo(col, row, false));
    el.addEventListener('keydown', (e) => this.key(e, col, row));
    (this.cells[row] ||= [])[col] = el;
  }

  moveTo(col, row, focus = true) {
    const old = this.cells[this.row]?.[this.col];
    if (old) old.setAttribute('tabindex', '-1');
    this.col = col;
    this.row = row;
    const el = this.cells[row]?.[col];
    if (!el) return;
    el.setAttribute('tabindex', '0');
    if (focus) el.focus();
  }

  key(e, col, row) {
    let c = col;
    let r = row;
    switch (e.key) {
      case 'ArrowLeft': c = Math.max(0, c - 1); break;
      case 'ArrowRight': c = Math.min(this.cols - 1, c + 1); break;
      case 'ArrowUp': r = Math.max(0, r - 1); break;
      case 'ArrowDown': r = Math.min(this.rows - 1, r + 1); break;
      case 'Home': c = 0; break;
      case 'End': c = this.cols - 1; break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        e.stopPropagation();
        this.onActivate(col, row);
        return;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
    this.moveTo(c, r);
  }

  // Focus goes back to the point it was on after a re-render.
  restore(hadFocus) {
    if (hadFocus) this.moveTo(this.col, this.row);
  }
}

// Whether keyboard focus is inside el.
export function hasFocus(el) {
  return !!(el && document.activeElement && el.contains(document.activeElement));
}
