// The few DOM helpers every part builds with: an element, a button, a number or text field, a menu's options.

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function button(label, title, onClick, className) {
  const node = element("button", className || "mz-button", label);
  node.type = "button";
  node.title = title;
  node.addEventListener("click", onClick);
  return node;
}

export function numberField(label, value, className, min) {
  const wrap = element("label", "mz-field");
  wrap.append(label + " ");
  const input = element("input", className);
  input.type = "number";
  input.min = String(min === undefined ? 0 : min);
  input.value = String(value);
  wrap.append(input);
  return [wrap, input];
}

// A one-line text field.
export function textInput(className, size, placeholder, title) {
  const input = element("input", className);
  input.type = "text";
  input.size = size;
  input.placeholder = placeholder;
  input.title = title;
  return input;
}

// A <select>'s options, appended: [value, label] pairs.
export function addOptions(menu, entries) {
  for (const [value, label] of entries) {
    const option = element("option", "", label);
    option.value = value;
    menu.append(option);
  }
  return menu;
}
