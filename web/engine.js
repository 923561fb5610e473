/* engine.js — locklab compiled to WebAssembly (web/main.c), as the page and the check worker
 * use it: one command at a time, its exit code, what it printed, and the files of its
 * in-memory file system. The same code runs in the page and, copied into a Blob, in the
 * worker (app.js makes that Blob from these functions' text: from file:// a page may not
 * load a worker's script from a file), so it refers to nothing but its argument. */
"use strict";

/* A promise of the engine (wasmModule: a compiled WebAssembly.Module, or none: the glue
 * compiles its own): { command(words, onErrLine) -> { code, stdout, stderr },
 * read(path) -> text or null, write(path, text), list(dir) -> names, version }. */
function LocklabEngine(createLocklab, wasmModule) {
  var out = [], err = [], errLine = [], onErrLine = null;
  var decoder = new TextDecoder("utf-8");
  function text(bytes) { return decoder.decode(new Uint8Array(bytes)); }
  return createLocklab({
    /* byte by byte, as the C library writes them: stdout and stderr are then no terminal
     * for locklab (isatty is false, as for a native run into a file) */
    stdout: function (c) { if (c !== null) out.push(c & 255); },
    stderr: function (c) {
      if (c === null) return;
      err.push(c & 255);
      if (!onErrLine) return;
      if (c === 10) { onErrLine(text(errLine)); errLine = []; } else errLine.push(c & 255);
    },
    print: function () {}, printErr: function () {},
    /* the module the page compiled once (app.js): instantiated here, not compiled again */
    instantiateWasm: wasmModule ? function (imports, done) {
      WebAssembly.instantiate(wasmModule, imports).then(function (instance) { done(instance, wasmModule); });
      return {};
    } : undefined
  }).then(function (mod) {
    var FS = mod.FS;
    try { FS.mkdir("/w"); } catch (e) { /* there already */ }
    /* the embedded data's folder, the current directory of every command (web/main.c): the
     * page's paths (scenarios/NAME.lua) are relative to it, as the native binary's are to
     * the top of the source tree */
    FS.chdir("/locklab");
    var dead = null;
    return {
      /* words: the command line after "locklab", e.g. ["run", "scenarios/x.lua", "-q"] */
      command: function (words, lineCallback) {
        if (dead) return { code: 3, stdout: "", stderr: dead };
        out = []; err = []; errLine = []; onErrLine = lineCallback || null;
        var code;
        try {
          code = mod.ccall("web_command", "number", ["string"], [words.join("\n")]);
        } catch (e) {
          /* the C code called exit() (out of memory: util.c) or trapped: this instance is
           * finished; the page makes a new one */
          var why = e && e.name === "ExitStatus" ? "locklab exited with status " + e.status
                                                  : "locklab stopped: " + (e && e.message ? e.message : e);
          dead = why;
          return { code: 3, stdout: text(out), stderr: text(err) + why + "\n", dead: true };
        }
        onErrLine = null;
        return { code: code, stdout: text(out), stderr: text(err) };
      },
      read: function (path) {
        try { return FS.readFile(path, { encoding: "utf8" }); } catch (e) { return null; }
      },
      readBytes: function (path) {
        try { return FS.readFile(path); } catch (e) { return null; }
      },
      write: function (path, data) { FS.writeFile(path, data); },
      remove: function (path) { try { FS.unlink(path); } catch (e) { /* not there */ } },
      list: function (dir) {
        try {
          return FS.readdir(dir).filter(function (n) { return n !== "." && n !== ".."; }).sort();
        } catch (e) { return []; }
      },
      isDir: function (path) {
        try { return FS.isDir(FS.stat(path).mode); } catch (e) { return false; }
      }
    };
  });
}
