// Runs MicroPython's WebAssembly build for the host, in one of two modes:
//
//   node run.mjs device IN_FD OUT_FD FLASH_DIR SETTINGS_JSON HEAP_BYTES
//   node run.mjs script SCRIPT_PY MODULE_DIR HEAP_BYTES
//
// device: the Pico firmware. FLASH_DIR holds what would be on the Pico's flash (main.py,
// core.py, wire.py); SETTINGS_JSON the simulated board's wiring and the harness's
// options. The firmware runs unchanged inside pico_boot.py, whose stand-ins for machine,
// time, select, sys and os talk to the host one line at a time: the host writes a command
// line on IN_FD and reads the answer on OUT_FD (see Device.exchange in pico_shim.py). The
// reads block: the firmware's clock is the host's, so nothing may run between two
// commands. What MicroPython prints outside the serial line goes to stderr.
//
// script: runs SCRIPT_PY with MODULE_DIR's files importable; its output goes to stdout.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = path.dirname(fileURLToPath(import.meta.url));
const [mode, ...args] = process.argv.slice(2);
const log = (text) => process.stderr.write(text + "\n");

function copyDir(mp, from, to) {
  mp.FS.mkdirTree(to);
  for (const name of fs.readdirSync(from)) {
    if (name.endsWith(".py")) mp.FS.writeFile(to + "/" + name, fs.readFileSync(path.join(from, name)));
  }
}

async function load(heap, output) {
  return loadMicroPython({ heapsize: Number(heap) || 262144, stdout: output, stderr: log, linebuffer: true });
}

function run(mp, code) {
  try {
    mp.runPython(code);
  } catch (error) {
    log(String(error && error.message ? error.message : error));
    process.exit(1);
  }
  process.exit(0);
}

if (mode === "script") {
  const [script, moduleDir, heap] = args;
  const mp = await load(heap, (text) => process.stdout.write(text + "\n"));
  copyDir(mp, moduleDir, "/flash");
  mp.FS.writeFile("/script.py", fs.readFileSync(script));
  run(mp, "import sys\nsys.path.insert(0, '/flash')\nexec(open('/script.py').read(), {'__name__': '__main__'})");
} else if (mode === "device") {
  const [inFd, outFd, flashDir, settingsPath, heap] = args;
  let pending = Buffer.alloc(0);
  const chunk = Buffer.alloc(65536);

  const readLine = () => {
    for (;;) {
      const newline = pending.indexOf(10);
      if (newline >= 0) {
        const line = pending.subarray(0, newline).toString("latin1");
        pending = pending.subarray(newline + 1);
        return line;
      }
      let count;
      try {
        count = fs.readSync(Number(inFd), chunk, 0, chunk.length, null);
      } catch (error) {
        if (error.code === "EAGAIN") continue;
        throw error;
      }
      if (count === 0) process.exit(0); // the host is gone: so is the device
      pending = Buffer.concat([pending, chunk.subarray(0, count)]);
    }
  };

  const writeLine = (text) => {
    const data = Buffer.from(text + "\n", "latin1");
    let done = 0;
    while (done < data.length) {
      try {
        done += fs.writeSync(Number(outFd), data, done);
      } catch (error) {
        if (error.code === "EAGAIN") continue;
        if (error.code === "EPIPE") process.exit(0);
        throw error;
      }
    }
  };

  const mp = await load(heap, log);
  mp.registerJsModule("hostpipe", {
    exchange: (line) => {
      writeLine(line);
      return readLine();
    },
    realtime_us: () => Math.round(performance.now() * 1000),
    leave: (status) => process.exit(status),
  });
  copyDir(mp, here, "/harness");
  mp.FS.writeFile("/harness/settings.json", fs.readFileSync(settingsPath));
  copyDir(mp, flashDir, "/flash");
  try {
    mp.runPython("import sys\nsys.path.insert(0, '/harness')\nimport pico_boot\npico_boot.prepare()");
    for (const step of ["load", "loaded", "probe", "weigh"]) mp.runPython(`pico_boot.${step}()`);
  } catch (error) {
    log(String(error && error.message ? error.message : error));
    process.exit(1);
  }
  run(mp, "pico_boot.run()");
} else {
  log("usage: node run.mjs device IN_FD OUT_FD FLASH_DIR SETTINGS_JSON HEAP | script FILE DIR HEAP");
  process.exit(2);
}
