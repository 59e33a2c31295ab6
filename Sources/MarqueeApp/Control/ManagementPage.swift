/// `GET /`: the page a person manages the screen from, served from the
/// binary with nothing fetched from elsewhere and no build step. It shows
/// the screen as it is now and what plays, with buttons for the common
/// commands; takes uploads (drag and drop or a file picker, a progress bar
/// each); shows the upload folder as thumbnails; edits the playlist (order,
/// each picture's duration) and the schedule. It holds no data itself: its
/// script (ManagementPage+Script.swift) asks the API for everything, with
/// the bearer token when the server wants one, asked for once and kept in
/// the browser (`localStorage`), so the page can be served without it.
enum ManagementPage {
    static var html: String { document.replacing("/*SCRIPT*/", with: script) }

    private static let document = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marquee</title>
<link rel="icon" href="data:,">
<style>
  * { box-sizing: border-box; }
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #111; color: #eee; }
  li { overflow-wrap: anywhere; }
  main { max-width: 960px; margin: auto; padding: 12px; }
  h1 { font-size: 1.2em; margin: 0 0 8px; } h2 { font-size: 1.05em; margin: 22px 0 8px; border-bottom: 1px solid #333; }
  #screen { width: 100%; background: #000; aspect-ratio: 16 / 9; object-fit: contain; display: block; border: 1px solid #333; }
  .buttons { display: flex; flex-wrap: wrap; gap: 6px; margin: 10px 0; }
  button { font: inherit; padding: 10px 14px; min-width: 44px; border: 0; border-radius: 6px; background: #2d5fa0; color: #fff; cursor: pointer; }
  button:active { background: #1d3f70; } button.quiet { background: #333; } button.danger { background: #8a2b2b; }
  button:disabled { opacity: .5; cursor: default; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 10px 0; }
  dt { color: #999; } dd { margin: 0; overflow-wrap: anywhere; }
  ol { padding-left: 1.6em; } li.current { font-weight: bold; }
  #errors li, .problem { color: #f99; } #problem { min-height: 1.4em; }
  #drop { border: 2px dashed #555; border-radius: 8px; padding: 18px; text-align: center; color: #aaa; }
  #drop.over { border-color: #6aa0e8; color: #fff; background: #1a2533; }
  #uploads { list-style: none; padding: 0; } #uploads li { display: grid; grid-template-columns: minmax(0, 1fr) 90px; gap: 2px 8px; margin: 6px 0; }
  #uploads progress { width: 100%; } #uploads .said { grid-column: 1 / 3; font-size: .9em; color: #aaa; }
  #media { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
  .card { background: #1b1b1b; border: 1px solid #333; border-radius: 6px; padding: 6px; display: flex; flex-direction: column; gap: 4px; }
  .card .thumb { width: 100%; aspect-ratio: 16 / 10; object-fit: contain; background: #000; display: flex; align-items: center;
                 justify-content: center; font-size: 2em; color: #777; }
  .card .name { overflow-wrap: anywhere; font-size: .9em; } .card .meta { color: #999; font-size: .85em; }
  .card .buttons { margin: 0; } .card button { padding: 6px 8px; font-size: .9em; }
  .used { color: #8c8; }
  #editor { list-style: none; padding: 0; counter-reset: entry; }
  #editor li { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px; margin: 4px 0; background: #1b1b1b;
               border: 1px solid #333; border-radius: 6px; counter-increment: entry; }
  #editor li::before { content: counter(entry) "."; color: #999; min-width: 1.6em; }
  #editor li.dragging { opacity: .4; } #editor li.target { border-color: #6aa0e8; }
  #editor .handle { cursor: grab; color: #999; padding: 0 4px; } #editor .path { flex: 1 1 12em; overflow-wrap: anywhere; }
  #editor input { width: 5.5em; font: inherit; padding: 6px; background: #000; color: #eee; border: 1px solid #444; border-radius: 4px; }
  #editor button { padding: 6px 10px; }
  table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid #2a2a2a; }
  textarea { width: 100%; box-sizing: border-box; min-height: 14em; font: 13px/1.35 ui-monospace, monospace; background: #000;
             color: #eee; border: 1px solid #444; border-radius: 4px; padding: 8px; }
  .said { color: #aaa; white-space: pre-wrap; }
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
  <button data-command="screen off" class="quiet">Screen off</button>
  <button data-command="screen on" class="quiet">Screen on</button>
</div>
<div id="problem" class="problem"></div>
<dl>
  <dt>State</dt><dd id="state">-</dd>
  <dt>Playing</dt><dd id="item">-</dd>
  <dt>Time</dt><dd id="time">-</dd>
  <dt>Next</dt><dd id="next">-</dd>
  <dt>Schedule</dt><dd id="scheduled">-</dd>
  <dt>A-V offset</dt><dd id="offset">-</dd>
  <dt>Frames</dt><dd id="frames">-</dd>
  <dt>Decoder</dt><dd id="decoder">-</dd>
  <dt>Display</dt><dd id="display">-</dd>
  <dt>Uptime</dt><dd id="uptime">-</dd>
</dl>

<h2>Upload</h2>
<div id="drop">Drop videos, pictures or sound here, or
  <label><input type="file" id="picker" multiple accept="video/*,image/*,audio/*"></label></div>
<ul id="uploads"></ul>

<h2>Media</h2>
<div id="media-problem" class="problem"></div>
<div id="media"></div>

<h2>Playlist</h2>
<p class="said">Drag the rows (or use the arrows) to reorder; a picture stays up for its duration in seconds (empty: the default).</p>
<ol id="editor"></ol>
<div class="buttons">
  <button id="save-playlist">Save playlist</button>
  <button id="reload-playlist" class="quiet">Undo changes</button>
</div>
<div id="playlist-said" class="said"></div>

<h2>Schedule</h2>
<table><thead><tr><th>From</th><th>Until</th><th>Shows</th></tr></thead><tbody id="schedule-ahead"></tbody></table>
<p class="said">The schedule as TOML: <code>[playlists.NAME]</code>, <code>[[schedule]]</code> and <code>[schedule_options]</code>.</p>
<textarea id="schedule-text" spellcheck="false"></textarea>
<div class="buttons"><button id="save-schedule">Save schedule</button></div>
<div id="schedule-said" class="said"></div>

<h2>Now playing, in order</h2>
<ol id="playlist"></ol>
<h2>Latest errors</h2>
<ul id="errors"></ul>
</main>
<script>
/*SCRIPT*/
</script>
</body>
</html>
"""#
}
