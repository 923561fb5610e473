#!/usr/bin/env python3
"""check_exports.py — checks the shape of what `locklab run` writes for other tools, since
the tools themselves cannot run here (Knossos needs Leiningen and Clojars, Porcupine the Go
module proxy, ShiViz a browser on the web). docs/export.md, docs/verdicts.md, docs/history.md.

    check_exports.py jsonl HISTORY.jsonl          every line JSON; *_b64 fields hold the bytes
    check_exports.py knossos FILE.edn             EDN read by a small reader; one op per process
                                                  at a time, each invoke completed; true-time order
    check_exports.py porcupine FILE.json          Porcupine's Operation fields and types
    check_exports.py shiviz FILE.log HISTORY.jsonl  every line matches the regex the file declares;
                                                  clocks tick by one per host and equal the vector
                                                  clocks recomputed here from the history's messages
    check_exports.py verdicts FILE.json           the verdicts document's fields

Prints nothing and exits 0 when the file is right; else one line saying what is wrong, exit 1.
"""
import base64
import json
import re
import sys


class Bad(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Bad(msg)


def read_utf8(path):
    with open(path, 'rb') as f:
        raw = f.read()
    try:
        return raw.decode('utf-8')  # strict: the file itself must be valid UTF-8
    except UnicodeDecodeError as e:
        raise Bad(f'{path}: not valid UTF-8 at byte {e.start}')


def check_jsonl(path):
    events = []
    for n, line in enumerate(read_utf8(path).split('\n')[:-1], 1):
        try:
            ev = json.loads(line)
        except ValueError as e:
            raise Bad(f'{path}:{n}: not JSON: {e}')
        for key in list(ev):
            if key.endswith('_b64'):
                base = key[:-4]
                need(base in ev, f'{path}:{n}: {key} without {base}')
                raw = base64.b64decode(ev[key], validate=True)
                need(ev[base] == raw.decode('utf-8', 'replace'),
                     f'{path}:{n}: {base} is not its bytes with U+FFFD for each ill-formed part')
                need(raw != raw.decode('utf-8', 'replace').encode('utf-8'), f'{path}:{n}: {key} on valid UTF-8')
        events.append(ev)
    return events


# ---- a small EDN reader: maps, vectors, lists, keywords, strings, integers, nil, true/false ----

EDN_TOKEN = re.compile(r'''\s+|,|;[^\n]*|[{}\[\]()]|"(?:[^"\\]|\\.)*"|:[^\s,{}\[\]()"]+|-?\d+|nil|true|false''')


def edn_tokens(text, path):
    pos = 0
    while pos < len(text):
        m = EDN_TOKEN.match(text, pos)
        need(m, f'{path}: EDN: cannot read at offset {pos}: {text[pos:pos + 20]!r}')
        tok = m.group(0)
        pos = m.end()
        if tok.isspace() or tok == ',' or tok.startswith(';'):
            continue
        yield tok


def edn_unescape(tok):
    return json.loads(tok)  # the writer uses JSON's escapes, which EDN readers accept


def edn_read(tokens, path):
    """Reads every top-level form."""
    forms, stack = [], []
    closers = {'}': '{', ']': '[', ')': '('}
    for tok in tokens:
        if tok in '{[(':
            stack.append((tok, []))
            continue
        if tok in closers:
            need(stack and stack[-1][0] == closers[tok], f'{path}: EDN: unbalanced {tok}')
            kind, items = stack.pop()
            if kind == '{':
                need(len(items) % 2 == 0, f'{path}: EDN: a map with an odd number of forms')
                val = dict(zip(items[0::2], items[1::2]))
                need(len(val) == len(items) // 2, f'{path}: EDN: a map with a repeated key')
            else:
                val = items
        elif tok.startswith('"'):
            val = edn_unescape(tok)
        elif tok.startswith(':'):
            val = ('kw', tok[1:])
        elif tok == 'nil':
            val = None
        elif tok in ('true', 'false'):
            val = tok == 'true'
        else:
            val = int(tok)
        (stack[-1][1] if stack else forms).append(val)
    need(not stack, f'{path}: EDN: {len(stack)} unclosed form(s)')
    return forms


def kw(name):
    return ('kw', name)


def check_knossos(path):
    ops = edn_read(edn_tokens(read_utf8(path), path), path)
    if len(ops) == 1 and isinstance(ops[0], list):
        ops = ops[0]
    open_op, crashed, last_time = {}, set(), -1
    for i, op in enumerate(ops):
        need(isinstance(op, dict), f'{path}: op {i} is not a map')
        for k in ('process', 'type', 'f', 'value', 'time', 'index'):
            need(kw(k) in op, f'{path}: op {i} has no :{k}')
        p, t, f = op[kw('process')], op[kw('type')], op[kw('f')]
        need(isinstance(p, int) and p >= 0, f'{path}: op {i}: :process {p!r}')
        need(t in (kw('invoke'), kw('ok'), kw('fail'), kw('info')), f'{path}: op {i}: :type {t!r}')
        need(f in (kw('acquire'), kw('release')), f'{path}: op {i}: :f {f!r}')
        need(op[kw('value')] is None, f'{path}: op {i}: :value is not nil')
        need(op[kw('index')] == i, f'{path}: op {i}: :index {op[kw("index")]}')
        need(op[kw('time')] >= last_time, f'{path}: op {i}: not in true-time order')
        last_time = op[kw('time')]
        need(p not in crashed, f'{path}: op {i}: process {p} acts after an :info (Knossos takes it as crashed)')
        if t == kw('invoke'):
            need(p not in open_op, f'{path}: op {i}: process {p} invokes while op {open_op.get(p)} is open')
            open_op[p] = (i, f)
        else:
            need(p in open_op, f'{path}: op {i}: process {p} completes nothing')
            need(open_op[p][1] == f, f'{path}: op {i}: completes a different :f than its invoke')
            del open_op[p]
            if t == kw('info'):
                crashed.add(p)
    need(not open_op, f'{path}: invocations never completed: {sorted(open_op.values())}')
    return ops


def check_porcupine(path):
    ops = json.loads(read_utf8(path))
    need(isinstance(ops, list), f'{path}: not a JSON array')
    last_call = -1
    for i, op in enumerate(ops):
        need(set(op) == {'ClientId', 'Input', 'Call', 'Output', 'Return'}, f'{path}: op {i}: fields {sorted(op)}')
        need(isinstance(op['ClientId'], int) and op['ClientId'] >= 0, f'{path}: op {i}: ClientId')
        need(isinstance(op['Call'], int) and isinstance(op['Return'], int), f'{path}: op {i}: Call/Return not integers')
        need(op['Call'] <= op['Return'], f'{path}: op {i}: returns before its call')
        need(op['Call'] >= last_call, f'{path}: op {i}: not in call order')
        last_call = op['Call']
        need(op['Input'].get('op') in ('acquire', 'release'), f'{path}: op {i}: Input.op')
        need(op['Output'].get('outcome') in ('ok', 'fail', 'unknown'), f'{path}: op {i}: Output.outcome')
    # a client's operations with known outcomes do not overlap
    by_client = {}
    for op in ops:
        if op['Output']['outcome'] != 'unknown':
            by_client.setdefault(op['ClientId'], []).append((op['Call'], op['Return']))
    for c, spans in by_client.items():
        for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
            need(a1 <= b0, f'{path}: client {c}: overlapping operations')
    return ops


def js_regex(line):
    """ShiViz's regex (JavaScript, named groups (?<name>...)) in Python's dialect, anchored as
    ShiViz anchors a regex read from a file's first line."""
    return re.compile('^' + line.replace('(?<', '(?P<') + '$')


def vector_clocks(events):
    """Fidge/Mattern clocks recomputed from the history: request → exec, exec → reply."""
    clocks, cur, sent = [], {}, {}
    for ev in events:
        host = ev['actor'] if ev['actor'] != 'world' else '(world)'
        c = dict(cur.get(host, {}))
        c[host] = c.get(host, 0) + 1
        key = None
        if ev['ev'] == 'exec' and 'peer' in ev:
            key = (ev['peer'], ev['a'], 'req')
        elif ev['ev'] == 'reply' and 'peer' in ev:
            key = (ev['actor'], ev['a'], 'rep')
        if key in sent:
            for h, v in sent.pop(key).items():
                c[h] = max(c.get(h, 0), v)
        if ev['ev'] == 'request' and 'peer' in ev:
            sent[(ev['actor'], ev['a'], 'req')] = dict(c)
        if ev['ev'] == 'exec' and 'peer' in ev:
            sent[(ev['peer'], ev['a'], 'rep')] = dict(c)
        cur[host] = c
        clocks.append((host, c))
    return clocks


def check_shiviz(path, history_path):
    lines = read_utf8(path).split('\n')
    need(len(lines) >= 3 and lines[-1] == '', f'{path}: too short')
    rx = js_regex(lines[0])
    need(set(rx.groupindex) >= {'host', 'clock', 'event'}, f'{path}: the regex lacks host, clock or event')
    need(lines[1] == '', f'{path}: line 2 (the multiple-executions delimiter) is not empty')
    seen, parsed = {}, []
    for n, line in enumerate(lines[2:-1], 3):
        m = rx.match(line)
        need(m, f'{path}:{n}: does not match the declared regex')
        host, clock = m.group('host'), json.loads(m.group('clock'))
        need(clock.get(host) == seen.get(host, 0) + 1, f'{path}:{n}: {host}\'s own entry does not tick by one')
        prev = next((c for h, c in reversed(parsed) if h == host), {})
        need(all(clock.get(h, 0) >= v for h, v in prev.items()), f'{path}:{n}: {host}\'s clock went back')
        for h, v in clock.items():
            need(h == host or 0 < v <= seen.get(h, 0), f'{path}:{n}: entry {h}:{v} names an event not yet seen')
        seen[host] = clock[host]
        parsed.append((host, clock))
    want = vector_clocks(check_jsonl(history_path))
    need(len(want) == len(parsed), f'{path}: {len(parsed)} events, the history has {len(want)}')
    for n, (got, exp) in enumerate(zip(parsed, want), 3):
        need(got == exp, f'{path}:{n}: clock {got} but the messages of the history give {exp}')
    return parsed


def check_verdicts(path):
    doc = json.loads(read_utf8(path))
    for k in ('format', 'version', 'scenario', 'file', 'seed', 'protocol', 'scripts', 'events', 'end',
              'verdicts', 'expectations'):
        need(k in doc, f'{path}: no "{k}"')
    need(doc['format'] == 'locklab-verdicts' and doc['version'] == 1, f'{path}: format/version')
    for v in doc['verdicts']:
        need(v['verdict'] in ('holds', 'violated', 'not_judged'), f'{path}: verdict {v["verdict"]}')
        if v['verdict'] == 'violated':
            for k in ('at', 'events_at', 'evidence', 'faults'):
                need(k in v, f'{path}: {v["property"]} violated without "{k}"')
            need(all(0 <= i < doc['events'] for i in v['events_at']), f'{path}: events_at out of range')
        if 'expected' in v:
            need(v['expected'] in ('holds', 'violated') and isinstance(v['met'], bool), f'{path}: expectation')
    ex = doc['expectations']
    need(ex['met'] + ex['unmet'] == ex['stated'], f'{path}: expectations do not add up')
    return doc


def main(argv):
    kinds = {'jsonl': check_jsonl, 'knossos': check_knossos, 'porcupine': check_porcupine,
             'shiviz': check_shiviz, 'verdicts': check_verdicts}
    if len(argv) < 3 or argv[1] not in kinds:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        kinds[argv[1]](*argv[2:])
    except Bad as e:
        print(f'check_exports: {e}')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
