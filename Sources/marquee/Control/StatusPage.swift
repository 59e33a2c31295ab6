/// `GET /`: a page for a person, served from the binary with no outside
/// assets: the screen as it is now (refreshed), what plays and what comes
/// next, the playlist, A-V offset, drops, decoder, uptime and the latest
/// errors, and buttons for the common commands. It holds no data itself:
/// its script reads `GET /status` and `GET /screenshot.png` and sends
/// `POST /command`, with the bearer token, when the server wants one,
/// asked for once and kept in the browser (`localStorage`), so the page
/// can be served without it.
enum StatusPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marquee</title>
<link rel="icon" href="data:,">
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #111; color: #eee; }
  main { max-width: 960px; margin: auto; padding: 12px; }
  h1 { font-size: 1.2em; margin: 0 0 8px; }
  #screen { width: 100%; background: #000; aspect-ratio: 16 / 9; object-fit: contain; display: block; border: 1px solid #333; }
  .buttons { display: flex; flex-wrap: wrap; gap: 6px; margin: 10px 0; }
  button { font: inherit; padding: 10px 14px; min-width: 64px; border: 0; border-radius: 6px; background: #2d5fa0; color: #fff; }
  button:active { background: #1d3f70; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 10px 0; }
  dt { color: #999; } dd { margin: 0; overflow-wrap: anywhere; }
  ol { padding-left: 1.6em; } li.current { font-weight: bold; }
  #errors li { color: #f99; } #problem { color: #f99; min-height: 1.4em; }
</style>
</head>
<body>
<main>
<h1>Marquee</h1>
<img id="screen" alt="the screen now">
<div class="buttons">
  <button data-command="prev">Prev</button>
  <button data-command="play" id="play">Play</button>
  <button data-command="pause" id="pause">Pause</button>
  <button data-command="next">Next</button>
  <button data-command="seek -10">-10 s</button>
  <button data-command="seek +10">+10 s</button>
  <button data-command="mute">Mute</button>
  <button data-command="unmute">Unmute</button>
</div>
<div id="problem"></div>
<dl>
  <dt>State</dt><dd id="state">-</dd>
  <dt>Playing</dt><dd id="item">-</dd>
  <dt>Time</dt><dd id="time">-</dd>
  <dt>Next</dt><dd id="next">-</dd>
  <dt>A-V offset</dt><dd id="offset">-</dd>
  <dt>Frames</dt><dd id="frames">-</dd>
  <dt>Decoder</dt><dd id="decoder">-</dd>
  <dt>Display</dt><dd id="display">-</dd>
  <dt>Uptime</dt><dd id="uptime">-</dd>
</dl>
<h2>Playlist</h2>
<ol id="playlist"></ol>
<h2>Latest errors</h2>
<ul id="errors"></ul>
</main>
<script>
"use strict";
let token = localStorage.getItem("marquee-token") || "";
let shownURL = null;

async function call(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (token) headers["Authorization"] = "Bearer " + token;
  const response = await fetch(path, Object.assign({}, options, { headers, cache: "no-store" }));
  if (response.status === 401) {
    const given = prompt("This player wants its access token:");
    if (given) {
      token = given.trim();
      localStorage.setItem("marquee-token", token);
      return call(path, options);
    }
  }
  return response;
}

function text(id, value) { document.getElementById(id).textContent = value; }

function seconds(value) {
  if (value === null || value === undefined) return "-";
  const whole = Math.floor(value);
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

async function refreshStatus() {
  const response = await call("/status");
  if (!response.ok) { text("problem", "status: " + response.status + " " + (await response.text())); return; }
  const status = await response.json();
  text("problem", "");
  text("state", status.state + (status.waiting ? " (waiting: " + status.waiting + ")" : ""));
  text("item", status.item ? status.item + " of " + status.items + ": " + status.source : "nothing");
  text("time", seconds(status.time) + " / " + seconds(status.duration));
  text("next", status.next || "-");
  text("offset", status.avOffsetP50Ms === null ? "-" : status.avOffsetP50Ms.toFixed(1) + " ms (p99 " + status.avOffsetP99Ms.toFixed(1) + " ms)");
  text("frames", status.framesPresented + " shown, " + status.framesDropped + " dropped, " + status.stalls + " stalls");
  text("decoder", (status.decoder.codec || "-") + " (" + (status.decoder.hwdec || "-") + ")");
  text("display", status.display);
  text("uptime", seconds(status.uptime));
  const list = document.getElementById("playlist");
  list.replaceChildren(...status.playlist.map(entry => {
    const item = document.createElement("li");
    item.textContent = entry.source;
    if (entry.current) item.className = "current";
    return item;
  }));
  const errors = document.getElementById("errors");
  errors.replaceChildren(...status.errors.slice().reverse().map(error => {
    const item = document.createElement("li");
    item.textContent = error.at + " " + error.source + ": " + error.message;
    return item;
  }));
}

async function refreshScreen() {
  const response = await call("/screenshot.png?width=960");
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  const image = document.getElementById("screen");
  image.src = url;
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

async function tick() {
  try { await refreshStatus(); await refreshScreen(); } catch (error) { text("problem", "the player does not answer: " + error); }
  setTimeout(tick, 2000);
}
tick();
</script>
</body>
</html>
"""#
}
