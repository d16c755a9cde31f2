// Files: a board, layout, replay or screenshot opened (the picker, a drop on the board, Ctrl+V of a
// board's text, a file or a screenshot), a file saved, and the picture a board was read from.
import { element, button } from "./dom.js";

const OPENABLE = ".mine,.txt,.json,.mbf,.avf,.rmv,.evf,.mvf,.png,.jpg,.jpeg,.gif,.bmp,.webp";
// A screenshot pasted, dropped or picked is sent as its bytes (the picture action; the page posts them
// raw to /api/picture, the widget as a buffer), known by its magic number as the server knows it
// (analyzer.interactive.screenshot.picture_format), and at most as large as the server reads.
const MAX_PICTURE_BYTES = 20 * 1024 * 1024;

function isPicture(bytes) {
  const starts = (...magic) => magic.every((b, i) => bytes[i] === b);
  const text = (at, word) => [...word].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));
  return (
    starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) ||
    starts(0xff, 0xd8, 0xff) ||
    text(0, "GIF87a") ||
    text(0, "GIF89a") ||
    text(0, "BM") ||
    (text(0, "RIFF") && text(8, "WEBP"))
  );
}

function toBase64(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    text += String.fromCharCode.apply(null, bytes.subarray(at, at + 0x8000));
  }
  return btoa(text);
}

export function saveBlob(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(link.href);
    link.remove();
  }, 1000);
}

// Open: a file picker, drag and drop onto the board, Ctrl+V of a board's text, a file or a
// screenshot (a picture's board is read by the session: its unsure cells are marked to set by hand).
// It sends the open, paste and picture actions through act; it gives the toolbar's button and picker.
export function fileOpener({ root, act, minesInput, showNote }) {
  const picker = element("input", "mz-file");
  picker.type = "file";
  picker.accept = OPENABLE;
  picker.hidden = true;
  async function openFile(file) {
    if (!file) return;
    const buffer = await file.arrayBuffer();
    if (isPicture(new Uint8Array(buffer, 0, Math.min(16, buffer.byteLength)))) {
      if (buffer.byteLength > MAX_PICTURE_BYTES) {
        showNote(`${file.name || "the picture"} is ${(buffer.byteLength / 2 ** 20).toFixed(1)} MiB: a picture opened here is at most ${MAX_PICTURE_BYTES / 2 ** 20} MiB`);
        return;
      }
      // No mine total is sent: the reader takes the picture's counter or its client's preset.
      act({ type: "picture", name: file.name || "picture" }, [buffer]);
      return;
    }
    const data = toBase64(buffer);
    act({ type: "open", name: file.name, data, mines: minesInput.value });
  }
  picker.addEventListener("change", () => {
    openFile(picker.files[0]);
    picker.value = "";
  });
  root.addEventListener("dragover", (event) => {
    event.preventDefault();
    event.stopPropagation();
    root.classList.add("mz-drop");
  });
  root.addEventListener("dragleave", () => root.classList.remove("mz-drop"));
  root.addEventListener("drop", (event) => {
    event.preventDefault();
    event.stopPropagation(); // JupyterLab would upload the file into its file browser
    root.classList.remove("mz-drop");
    const files = event.dataTransfer && event.dataTransfer.files;
    if (files && files.length) openFile(files[0]);
    else if (event.dataTransfer) pasteText(event.dataTransfer.getData("text/plain"));
  });
  function pasteText(text) {
    if (text && text.trim()) act({ type: "paste", text, mines: minesInput.value });
  }
  root.addEventListener("paste", (event) => {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    event.preventDefault();
    event.stopPropagation(); // not JupyterLab's paste of cells
    const data = event.clipboardData;
    if (data && data.files && data.files.length) openFile(data.files[0]);
    else if (data) pasteText(data.getData("text/plain"));
  });
  const openButton = button("open…", "Open a board, layout, replay or screenshot (or drop a file or a screenshot on the board, or paste a board's text or a screenshot with Ctrl+V)", () => picker.click(), "mz-button mz-open");
  return [openButton, picker];
}

// A picture read as the board: its thumbnail (the thumbnail query) beside what was read, the
// summary and the transcription (analyzer.pictures' describe(): unsure cells "?"). The unsure cells
// themselves are marked on the board (marks.unsure) until the person sets each.
export function picturePanel(send) {
  const box = element("div", "mz-picture");
  box.hidden = true;
  const thumb = element("img", "mz-picture-thumb");
  thumb.alt = "the picture the board was read from";
  thumb.hidden = true;
  const text = element("div", "mz-picture-text");
  const summary = element("div", "mz-picture-summary");
  const read = element("pre", "mz-picture-read");
  read.title = "The board as read: ? an unsure cell (outlined on the board until you set it)";
  text.append(summary, read);
  box.append(thumb, text);
  let shown = null; // the number of the picture shown
  return {
    box,
    update(view) {
      const picture = view.picture;
      box.hidden = !picture;
      if (!picture) {
        shown = null;
        return;
      }
      summary.textContent = picture.summary;
      read.textContent = picture.text;
      if (picture.id !== shown) {
        shown = picture.id;
        thumb.hidden = true;
        thumb.removeAttribute("src");
        if (picture.thumbnail) send({ type: "thumbnail" });
      }
    },
    answered(answer) {
      if (!answer || answer.type !== "thumbnail" || answer.id !== shown) return;
      thumb.src = `data:${answer.mime};base64,${answer.data}`;
      thumb.width = answer.width;
      thumb.height = answer.height;
      thumb.hidden = false;
    },
  };
}
