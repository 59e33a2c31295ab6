extension ManagementPage {
    /// The page's script: plain JavaScript that browsers of the last years
    /// run as it is (no modules, no framework, nothing fetched).
    static let script = #"""
"use strict";
let token = localStorage.getItem("marquee-token") || "";
let shownURL = null;
let media = [];
let entries = [];
let playlistDirty = false;
let scheduleDirty = false;
const thumbnails = new Map();

function authorization() { return token ? { "Authorization": "Bearer " + token } : {}; }

function askForToken() {
  const given = prompt("This player wants its access token:");
  if (!given) return false;
  token = given.trim();
  localStorage.setItem("marquee-token", token);
  return true;
}

async function call(path, options = {}) {
  const headers = Object.assign({}, options.headers || {}, authorization());
  const response = await fetch(path, Object.assign({}, options, { headers, cache: "no-store" }));
  if (response.status === 401 && askForToken()) return call(path, options);
  return response;
}

function text(id, value) { document.getElementById(id).textContent = value; }

function make(tag, properties = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) {
    if (key === "className") element.className = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value);
  }
  element.append(...children);
  return element;
}

function seconds(value) {
  if (value === null || value === undefined) return "-";
  const whole = Math.floor(value);
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

function size(bytes) {
  if (bytes < 1024) return bytes + " B";
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes, unit = -1;
  do { value /= 1024; unit += 1; } while (value >= 1024 && unit < units.length - 1);
  return value.toFixed(value < 10 ? 1 : 0) + " " + units[unit];
}

function baseName(path) { return path.slice(path.lastIndexOf("/") + 1); }

function mediaURL(name) { return "/media/" + encodeURIComponent(name); }

// --- the screen and what plays ---------------------------------------------

async function refreshStatus() {
  const response = await call("/status");
  if (!response.ok) { text("problem", "status: " + response.status + " " + (await response.text())); return null; }
  const status = await response.json();
  text("problem", "");
  text("state", status.state + (status.waiting ? " (waiting: " + status.waiting + ")" : "") + (status.screen === "off" ? ", screen off" : ""));
  text("item", status.item ? status.item + " of " + status.items + ": " + status.source : "nothing");
  text("time", seconds(status.time) + " / " + seconds(status.duration));
  text("next", status.next || "-");
  const schedule = status.schedule;
  text("scheduled", schedule ? (schedule.showing || "-") + (schedule.nextChange ? ", until " + schedule.nextChange : "") : "none");
  text("offset", status.avOffsetP50Ms === null ? "-" : status.avOffsetP50Ms.toFixed(1) + " ms (p99 " + status.avOffsetP99Ms.toFixed(1) + " ms)");
  text("frames", status.framesPresented + " shown, " + status.framesDropped + " dropped, " + status.stalls + " stalls");
  text("decoder", (status.decoder.codec || "-") + " (" + (status.decoder.hwdec || "-") + ")");
  text("display", status.display);
  text("uptime", seconds(status.uptime));
  document.getElementById("playlist").replaceChildren(...status.playlist.map(entry =>
    make("li", entry.current ? { className: "current" } : {}, entry.source + (entry.duration ? " (" + entry.duration + " s)" : ""))));
  document.getElementById("errors").replaceChildren(...status.errors.slice().reverse().map(error =>
    make("li", {}, error.at + " " + error.source + ": " + error.message)));
  return status;
}

async function refreshScreen() {
  const response = await call("/screenshot.png?width=960");
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  document.getElementById("screen").src = url;
  if (shownURL) URL.revokeObjectURL(shownURL);
  shownURL = url;
}

async function send(command) {
  const response = await call("/command", { method: "POST", headers: { "Content-Type": "text/plain" }, body: command });
  if (!response.ok) text("problem", command + ": " + (await response.text()));
  await refreshStatus();
}

for (const button of document.querySelectorAll("button[data-command]")) {
  button.addEventListener("click", () => send(button.dataset.command));
}

// --- uploads ---------------------------------------------------------------

function upload(file) {
  const bar = make("progress", { max: "100", value: "0" });
  const said = make("span", { className: "said" }, "waiting");
  document.getElementById("uploads").append(make("li", {}, make("span", {}, file.name + " (" + size(file.size) + ")"), bar, said));
  return new Promise(resolve => {
    const request = new XMLHttpRequest();
    request.open("PUT", mediaURL(file.name));
    for (const [name, value] of Object.entries(authorization())) request.setRequestHeader(name, value);
    request.upload.addEventListener("progress", event => {
      if (event.lengthComputable) bar.value = Math.round(100 * event.loaded / event.total);
      said.textContent = size(event.loaded) + " sent";
    });
    request.addEventListener("load", async () => {
      if (request.status === 401 && askForToken()) { resolve(await upload(file)); return; }
      const ok = request.status === 200 || request.status === 201;
      bar.value = ok ? 100 : 0;
      said.textContent = ok ? (request.status === 201 ? "stored" : "replaced") : request.status + " " + request.responseText.trim();
      said.className = ok ? "said" : "said problem";
      await refreshMedia();
      resolve(ok);
    });
    request.addEventListener("error", () => {
      said.textContent = "the connection failed";
      said.className = "said problem";
      resolve(false);
    });
    request.send(file);
  });
}

async function uploadAll(files) {
  for (const file of files) await upload(file);
}

const drop = document.getElementById("drop");
drop.addEventListener("dragover", event => { event.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", event => {
  event.preventDefault();
  drop.classList.remove("over");
  uploadAll(Array.from(event.dataTransfer.files));
});
document.getElementById("picker").addEventListener("change", event => {
  uploadAll(Array.from(event.target.files));
  event.target.value = "";
});

// --- the upload folder -----------------------------------------------------

async function thumbnail(file, holder) {
  if (!file.kind || file.kind === "audio") {
    holder.textContent = file.kind === "audio" ? "\u266A" : "!";
    return;
  }
  const key = file.name + "\n" + file.modified + "\n" + file.bytes;
  let url = thumbnails.get(key);
  if (!url) {
    const response = await call(mediaURL(file.name) + "/thumbnail.png?width=240");
    if (!response.ok) { holder.textContent = "?"; return; }
    url = URL.createObjectURL(await response.blob());
    thumbnails.set(key, url);
  }
  holder.replaceChildren(make("img", { src: url, alt: file.name, className: "thumb" }));
}

async function refreshMedia() {
  const response = await call("/media");
  if (!response.ok) {
    text("media-problem", "media: " + response.status + " " + (await response.text()));
    return;
  }
  text("media-problem", "");
  media = await response.json();
  document.getElementById("media").replaceChildren(...media.map(file => {
    const holder = make("div", { className: "thumb" });
    thumbnail(file, holder);
    const meta = [file.kind || "cannot play", file.duration === null ? null : seconds(file.duration),
                  file.width ? file.width + "\u00D7" + file.height : null, size(file.bytes)].filter(Boolean).join(" \u00B7 ");
    return make("div", { className: "card", "data-name": file.name }, holder,
      make("div", { className: "name" }, file.name),
      make("div", { className: "meta" }, meta, file.inPlaylist ? make("span", { className: "used" }, " \u00B7 in the playlist") : ""),
      file.problem ? make("div", { className: "meta problem" }, file.problem) : "",
      make("div", { className: "buttons" },
        make("button", { className: "add", onclick: () => addToPlaylist(file), ...(file.kind ? {} : { disabled: "" }) }, "Add"),
        make("button", { className: "danger delete", onclick: () => remove(file) }, "Delete")));
  }));
}

async function remove(file) {
  if (!confirm("Delete " + file.name + (file.inPlaylist ? " (it is taken out of the playlist)" : "") + "?")) return;
  const response = await call(mediaURL(file.name), { method: "DELETE" });
  if (!response.ok) text("media-problem", "delete " + file.name + ": " + response.status + " " + (await response.text()));
  await refreshMedia();
  if (!playlistDirty) await loadPlaylist();
}

// --- the playlist ----------------------------------------------------------

function kindOf(path) {
  const file = media.find(candidate => candidate.path === path);
  return file ? file.kind : null;
}

function changed() {
  playlistDirty = true;
  text("playlist-said", "not saved yet");
  renderPlaylist();
}

function move(from, to) {
  if (to < 0 || to >= entries.length || from === to) return;
  const [entry] = entries.splice(from, 1);
  entries.splice(to, 0, entry);
  changed();
}

function addToPlaylist(file) {
  entries.push({ path: file.path, duration: file.kind === "image" ? 10 : null });
  changed();
}

let dragged = null;

function renderPlaylist() {
  const list = document.getElementById("editor");
  list.replaceChildren(...entries.map((entry, index) => {
    const duration = make("input", { type: "number", min: "0.1", step: "0.1", placeholder: "default", "aria-label": "seconds",
                                     className: "duration" });
    duration.value = entry.duration === null ? "" : String(entry.duration);
    duration.addEventListener("change", () => {
      const value = duration.value.trim();
      entry.duration = value === "" ? null : Number(value);
      changed();
    });
    const kind = kindOf(entry.path);
    const row = make("li", { draggable: "true", "data-index": String(index) },
      make("span", { className: "handle", title: "drag to move" }, "\u2630"),
      make("span", { className: "path", title: entry.path }, baseName(entry.path) + (kind ? " (" + kind + ")" : "")),
      duration, make("span", { className: "said" }, "s"),
      make("button", { className: "quiet up", title: "up", onclick: () => move(index, index - 1) }, "\u2191"),
      make("button", { className: "quiet down", title: "down", onclick: () => move(index, index + 1) }, "\u2193"),
      make("button", { className: "danger remove", title: "remove", onclick: () => { entries.splice(index, 1); changed(); } }, "\u2715"));
    row.addEventListener("dragstart", event => { dragged = index; row.classList.add("dragging"); event.dataTransfer.effectAllowed = "move"; });
    row.addEventListener("dragend", () => row.classList.remove("dragging"));
    row.addEventListener("dragover", event => { event.preventDefault(); row.classList.add("target"); });
    row.addEventListener("dragleave", () => row.classList.remove("target"));
    row.addEventListener("drop", event => { event.preventDefault(); if (dragged !== null) move(dragged, index); dragged = null; });
    return row;
  }));
}

async function loadPlaylist() {
  const response = await call("/playlist?entries");
  if (!response.ok) { text("playlist-said", "playlist: " + response.status + " " + (await response.text())); return; }
  const saved = await response.json();
  entries = saved.playlist.map(entry => typeof entry === "string" ? { path: entry, duration: null } : { path: entry.path, duration: entry.duration });
  playlistDirty = false;
  renderPlaylist();
}

async function savePlaylist() {
  const body = { playlist: entries.map(entry => entry.duration === null ? entry.path : { path: entry.path, duration: entry.duration }) };
  const response = await call("/playlist", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.text();
  if (!response.ok) { text("playlist-said", response.status + " " + answer.trim()); return; }
  await loadPlaylist();
  text("playlist-said", JSON.parse(answer).result);
  await refreshMedia();
}

document.getElementById("save-playlist").addEventListener("click", savePlaylist);
document.getElementById("reload-playlist").addEventListener("click", () => { loadPlaylist(); text("playlist-said", ""); });

// --- the schedule ----------------------------------------------------------

async function refreshSchedule(followed) {
  const ahead = followed ? await call("/schedule") : null;
  const rows = ahead && ahead.ok ? await ahead.json() : [];
  document.getElementById("schedule-ahead").replaceChildren(...(rows.length ? rows.map(segment =>
    make("tr", {}, make("td", {}, segment.from.replace("T", " ")), make("td", {}, segment.until.replace("T", " ")),
         make("td", {}, segment.screen === "off" ? "screen off" : (segment.playlist || "the playlist")))) :
    [make("tr", {}, make("td", { colspan: "3" }, "No schedule: the playlist plays all day."))]));
  if (scheduleDirty) return;
  const source = await call("/schedule.toml");
  if (source.ok) document.getElementById("schedule-text").value = await source.text();
}

document.getElementById("schedule-text").addEventListener("input", () => { scheduleDirty = true; });
document.getElementById("save-schedule").addEventListener("click", async () => {
  const response = await call("/schedule", { method: "PUT", headers: { "Content-Type": "application/toml" },
                                             body: document.getElementById("schedule-text").value });
  const answer = await response.text();
  text("schedule-said", response.ok ? JSON.parse(answer).result : response.status + " " + answer.trim());
  if (response.ok) { scheduleDirty = false; await refreshSchedule(true); }
});

// --- keeping it current ----------------------------------------------------

async function tick() {
  try { await refreshStatus(); await refreshScreen(); } catch (error) { text("problem", "the player does not answer: " + error); }
  setTimeout(tick, 2000);
}

// Sections the player cannot serve (no upload folder) say so instead of asking.
async function start() {
  try {
    const status = await refreshStatus();
    if (status && status.uploads) {
      await refreshMedia();
    } else {
      document.getElementById("drop").hidden = true;
      text("media-problem", "No upload folder: set [playback] media_roots (and [controls.http] upload_dir) in the player's configuration.");
    }
    await loadPlaylist();
    await refreshSchedule(status && status.schedule);
  } catch (error) {
    text("problem", "the player does not answer: " + error);
  }
  tick();
}
start();
"""#
}
