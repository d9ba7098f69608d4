#!/usr/bin/env python3
"""tests/preview/client.py - the preview server as HTTP clients see it.

Run by tests/preview/run.sh: python3 client.py QBC WORKDIR.  Starts
`qbc preview --port 0` on a copy of bank.qb in WORKDIR and prints one
line per case, "PASS name" or "FAIL name: why"; run.sh counts them.
Every request goes through python's http.client or raw sockets (curl is
not needed)."""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

QBC, WORK = sys.argv[1], sys.argv[2]
BANK = os.path.join(WORK, 'bank', 'bank.qb')
servers = []  # every server started, stopped at exit whatever happens


def case(name, ok, why=''):
    print(('PASS ' if ok else 'FAIL ') + name + ('' if ok else ': ' + why), flush=True)


class Server:
    """qbc preview on a port of its own choosing (--port 0)."""

    def __init__(self, *args, env=None):
        self.out = open(os.path.join(WORK, 'stdout'), 'w+')
        self.err = open(os.path.join(WORK, 'stderr'), 'w+')
        e = dict(os.environ, NO_COLOR='1', TMPDIR=os.path.join(WORK, 'tmp'))
        e.update(env or {})
        self.p = subprocess.Popen([QBC, 'preview', *args], stdout=self.out, stderr=self.err,
                                  cwd=WORK, env=e)
        servers.append(self.p)
        self.line = ''
        for _ in range(200):
            self.out.seek(0)
            self.line = self.out.read()
            if self.line or self.p.poll() is not None:
                break
            time.sleep(0.05)
        m = re.search(r':(\d+)/', self.line)
        self.port = int(m.group(1)) if m else 0

    def stop(self, sig=signal.SIGTERM):
        self.p.send_signal(sig)
        try:
            return self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return None

    def stderr(self):
        self.err.seek(0)
        return self.err.read()


def request(port, path, method='GET', host=None, headers=None, body=None, timeout=10):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    if host is not False:
        c.putheader('Host', f'127.0.0.1:{port}' if host is None else host)
    for k, v in (headers or {}).items():
        c.putheader(k, v)
    if body is not None:
        c.putheader('Content-Length', str(len(body)))
    c.endheaders(body)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data, r


def raw(port, data, timeout=5):
    """Sends bytes as they are; returns the status code (0: closed)."""
    s = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    try:
        s.sendall(data)
        got = b''
        while b'\r\n' not in got:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
    except OSError:
        got = b''
    finally:
        s.close()
    m = re.match(rb'HTTP/1\.[01] (\d+)', got)
    return int(m.group(1)) if m else 0


def state(port, since=None):
    path = '/api/state' if since is None else f'/api/wait?v={since}'
    st, data, _ = request(port, path, timeout=30)
    return json.loads(data) if st == 200 else None


def alive(srv):
    try:
        return request(srv.port, '/')[0] == 200
    except OSError:
        return False


def expected_diags(path):
    r = subprocess.run([QBC, 'check', path], capture_output=True, text=True, cwd=WORK,
                       env=dict(os.environ, NO_COLOR='1'))
    return r.stderr


def main():
    os.makedirs(os.path.join(WORK, 'tmp'), exist_ok=True)
    nq = sum(1 for l in open(BANK) if re.match(r'^\d+\. ', l))
    srv = Server('--port', '0', BANK)
    case('starts with one line naming the bank and the address',
         re.fullmatch(r"preview of 'preview-test' at http://127\.0\.0\.1:\d+/ \(Ctrl-C stops\)\n",
                      srv.line) is not None, repr(srv.line) + srv.stderr())
    if not srv.port:
        srv.stop()
        return
    port = srv.port

    # ---- what it serves
    st, page, _ = request(port, '/')
    case('GET / serves the page', st == 200 and b'qbc preview' in page, str(st))
    st, body, r = request(port, '/', method='HEAD')
    case('HEAD / answers without a body', st == 200 and body == b'', f'{st} {len(body)}')
    s = state(port)
    bank = s and s['banks'][0]
    case('the state lists every question', bank and len(bank['questions']) == nq, str(s)[:200])
    q = bank['questions'][0]
    case('a question has its id, type, tags and languages',
         q['id'] == 'first-question' and q['type'] == 'single' and q['tags'] == ['basics']
         and set(q['status']) == {'en', 'sw'}, json.dumps(q)[:300])
    case('without a record every translation is new',
         all(v == 'new' for qq in bank['questions'] for v in qq['status'].values()), '')
    case('each language has its Anki note', set(q['notes']) == {'en', 'sw'}
         and q['notes']['en']['fields']['ID'] == 'preview-test:first-question:en', '')
    hostile = json.dumps(bank['questions'][1]['notes'])
    case('a <script> in the bank reaches the page escaped',
         '&lt;script&gt;' in hostile and '<script>alert' not in hostile, hostile[:200])
    pic = re.search(r'src=\\"(sky-[0-9a-f]+\.png)', json.dumps(q['notes']['en']['fields']))
    st, data, r = request(port, bank['base'] + 'anki/' + (pic.group(1) if pic else 'none'))
    case('the card\'s picture is served from the package',
         pic and st == 200 and data.startswith(b'\x89PNG') and r.getheader('Content-Type') == 'image/png', str(st))
    st, data, _ = request(port, bank['base'] + 'scorm/index.html')
    st2, data2, _ = request(port, bank['base'] + 'scorm/data.js')
    case('the SCORM player and its data are served', st == 200 and st2 == 200
         and b'player.js' in data and b'window.QB_DATA' in data2, f'{st} {st2}')

    # ---- refusals
    for m in ('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'):
        st, _, r = request(port, '/', method=m, body=b'x=1' if m in ('POST', 'PUT') else None)
        case(f'{m} gets 405', st == 405 and 'GET' in (r.getheader('Allow') or ''), str(st))
    for h in ('evil.example', f'evil.example:{port}', f'127.0.0.1:{port + 1}',
              f'rebind.127.0.0.1.nip.io:{port}', f'127.0.0.1:{port}@evil.example', ''):
        st, _, _ = request(port, '/api/state', host=h)
        case(f'Host {h!r} gets 403', st == 403, str(st))
    st = raw(port, b'GET /api/state HTTP/1.0\r\n\r\n')
    case('no Host header gets 403', st == 403, str(st))
    for h in (f'localhost:{port}', f'LOCALHOST:{port}'):
        st, _, _ = request(port, '/', host=h)
        case(f'Host {h!r} is this computer', st == 200, str(st))
    b = bank['base']
    for path in ('/../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
                 b + 'scorm/../../../etc/passwd', b + 'scorm/%2e%2e/%2e%2e/bank.qb',
                 b + 'scorm%2f..%2f..%2fbank.qb', b + 'anki/..%2f..%2fbank.qb', '/etc/passwd',
                 '//etc/passwd', '/bank.qb', '/bank/bank.qb', '/media/sky.png', '/bank/media/sky.png',
                 b + 'anki/link.png', b + 'anki/media/link.png', b + 'scorm/media/link.png',
                 '/b/', b, b + 'scorm/', b + 'scorm/media/', '/templates/preview/index.html',
                 '/preview.js/..', '/%00', b + 'scorm/index.html%00.png', '/b/9/scorm/index.html',
                 '/b/-1/anki/', '/api/', '/api/state/..'):
        st, _, _ = request(port, path)
        case(f'{path} gets 404', st == 404, str(st))
    st = raw(port, f'GET http://evil.example/etc/passwd HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n'.encode())
    case('an absolute-form request for another host is not served', st in (400, 403, 404), str(st))

    # ---- bounds
    st = raw(port, b'GET /' + b'a' * 20000 + f' HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n'.encode())
    case('a 20 KB request line is refused', st in (0, 400, 414, 431), str(st))
    st = raw(port, f'GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Big: {"b" * 20000}\r\n\r\n'.encode())
    case('a 20 KB header is refused', st in (0, 400, 431), str(st))
    many = ''.join(f'X-H{i}: {"c" * 100}\r\n' for i in range(200))
    st = raw(port, f'GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{many}\r\n'.encode())
    case('200 headers of 100 bytes are refused', st in (0, 400, 431), str(st))
    # Slow clients (slowloris): 100 connections that never finish their
    # headers; the others are still answered.
    slow = []
    for _ in range(100):
        sock = socket.create_connection(('127.0.0.1', port), timeout=5)
        sock.sendall(b'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
        slow.append(sock)
    t0 = time.monotonic()
    st, _, _ = request(port, '/api/state', timeout=5)
    case('100 slow clients do not stop the others', st == 200 and time.monotonic() - t0 < 5, str(st))
    for sock in slow:
        sock.close()

    # 500 connections open at once: the others are still answered, and
    # memory comes back down once they are gone.
    def rss():
        for line in open(f'/proc/{srv.p.pid}/status'):
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) // 1024
        return 0

    before = rss()
    idle = []
    try:
        for _ in range(500):
            idle.append(socket.create_connection(('127.0.0.1', port), timeout=5))
        st = request(port, '/api/state', timeout=10)[0]
    except OSError as e:
        st = str(e)
    case('500 connections at once: the others are still answered', st == 200, f'{st} after {len(idle)}')
    for sock in idle:
        sock.close()
    time.sleep(0.5)
    case('memory stays flat (RSS within 64 MiB of before)', rss() < before + 64, f'{before} -> {rss()} MiB')

    # Load: 2,000 requests over 50 keep-alive connections, all answered.
    counts = {'ok': 0, 'bad': 0}
    lock = threading.Lock()

    def worker(n):
        c = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
        for i in range(n):
            path = ('/', '/preview.js', '/api/state', b + 'scorm/player.js')[i % 4]
            try:
                c.request('GET', path, headers={'Host': f'127.0.0.1:{port}'})
                r = c.getresponse()
                r.read()
                ok = r.status == 200
            except OSError:
                ok = False
                c.close()
                c = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
            with lock:
                counts['ok' if ok else 'bad'] += 1
        c.close()

    threads = [threading.Thread(target=worker, args=(40,)) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    case('2,000 requests over 50 connections are all answered',
         counts['ok'] == 2000 and counts['bad'] == 0, str(counts))
    case('the server is alive after the load', alive(srv), '')

    # ---- live: a save, a picture, a labels file, an error and its fix
    v = s['version']
    text = open(BANK).read()
    open(BANK, 'w').write(text.replace('on a clear day?', 'on a cloudless day?'))
    t0 = time.monotonic()
    s2 = state(port, v)
    took = time.monotonic() - t0
    f = json.dumps(s2['banks'][0]['questions'][0]['notes']['en']['fields']) if s2 else ''
    case('saving the bank publishes the new text', s2 and 'cloudless day' in f and took < 5,
         f'{took:.2f}s')
    v = s2['version']
    png = open(os.path.join(WORK, 'bank', 'media', 'sky.png'), 'rb').read()
    open(os.path.join(WORK, 'bank', 'media', 'sky.png'), 'wb').write(png + b'\0')
    s3 = state(port, v)
    f3 = json.dumps(s3['banks'][0]['questions'][0]['notes']['en']['fields']) if s3 else ''
    case('saving a picture publishes it under its new name', s3 and s3['version'] > v
         and pic and pic.group(1) not in f3 and 'sky-' in f3, f3[:100])
    v = s3['version']
    os.makedirs(os.path.join(WORK, 'bank', 'labels'), exist_ok=True)
    open(os.path.join(WORK, 'bank', 'labels', 'en.json'), 'w').write('{"labels": {"correct": "Spot on"}}\n')
    labels, s4 = b'', None
    for _ in range(3):  # the folder made, then the file saved
        s4 = state(port, v)
        for fl in re.findall(r'_qbc-labels-[0-9a-f]+\.js', json.dumps(s4['banks'][0]['anki'])) if s4 else []:
            labels = request(port, b + 'anki/' + fl)[1]
        if b'Spot on' in labels or not s4:
            break
        v = s4['version']
    case('saving a labels file publishes it', s4 and s4['version'] > v and b'Spot on' in labels, '')
    v = s4['version']
    broken = open(BANK).read().replace('   * en: Blue', '   * en: Blue\n   sw:', 1).replace(
        'default-language: en', 'default-language: en\nshuffle: sometimes')
    open(BANK, 'w').write(broken)
    s5 = state(port, v)
    diags = s5['banks'][0]['diagnostics'] if s5 else ''
    want = expected_diags(BANK)
    case('a broken bank shows the diagnostics exactly as qbc check prints them',
         s5 and s5['banks'][0]['failed'] and diags == want and re.search(r'bank\.qb:\d+:\d+: error: ', diags)
         and '^' in diags, repr(diags[:300]) + ' vs ' + repr(want[:300]))
    case('a broken bank keeps the last good version', s5 and len(s5['banks'][0]['questions']) == nq
         and 'cloudless day' in json.dumps(s5['banks'][0]['questions'][0]['notes']), '')
    v = s5['version']
    open(BANK, 'w').write(text)
    s6 = state(port, v)
    case('fixing the bank clears the diagnostics', s6 and not s6['banks'][0]['failed']
         and s6['banks'][0]['diagnostics'] == '' and 'clear day' in json.dumps(s6['banks'][0]['questions'][0]['notes']),
         str(s6 and s6['banks'][0]['diagnostics']))

    # A long poll with nothing new ends by itself, and the server stops
    # cleanly while one is waiting.
    waiting = {}

    def wait_forever():
        try:
            waiting['status'] = request(port, f'/api/wait?v={s6["version"]}', timeout=40)[0]
        except OSError as e:
            waiting['status'] = str(e)

    t = threading.Thread(target=wait_forever)
    t.start()
    time.sleep(0.3)
    rc = srv.stop(signal.SIGINT)
    t.join(10)
    case('Ctrl-C stops it with exit 0, even with a page waiting', rc == 0 and not t.is_alive(),
         f'{rc} {srv.stderr()[-300:]}')
    case('it wrote nothing next to the bank or into output/',
         sorted(os.listdir(os.path.join(WORK, 'bank'))) == ['bank.qb', 'labels', 'media']
         and sorted(os.listdir(os.path.join(WORK, 'bank', 'media'))) == ['link.png', 'sky.png']
         and not os.path.exists(os.path.join(WORK, 'output')), str(os.listdir(os.path.join(WORK, 'bank'))))
    case('its private folder is gone', os.listdir(os.path.join(WORK, 'tmp')) == [],
         str(os.listdir(os.path.join(WORK, 'tmp'))))

    # ---- the record's states; SIGTERM; ports
    subprocess.run([QBC, 'build', '-o', os.path.join(WORK, 'out'), BANK], capture_output=True, cwd=WORK)
    lock_before = open(BANK[:-3] + '.lock', 'rb').read()
    open(BANK, 'w').write(text.replace('en: Blue\n', 'en: Deep blue\n'))
    srv = Server('--port', '0', BANK)
    s = state(srv.port) if srv.port else None
    st = s and {q['id']: q['status'] for q in s['banks'][0]['questions']}
    case('translations read from the record: reviewed, and stale after an edit',
         st and st['hostile-text'] == {'en': 'reviewed', 'sw': 'reviewed'}
         and st['first-question']['sw'] == 'stale', str(st))
    rc = srv.stop(signal.SIGTERM)
    case('SIGTERM stops it with exit 0', rc == 0, str(rc))
    case('the revision record is untouched', open(BANK[:-3] + '.lock', 'rb').read() == lock_before, '')
    busy = socket.socket()
    busy.bind(('127.0.0.1', 0))
    busy.listen()
    srv = Server('--port', str(busy.getsockname()[1]), BANK)
    rc = srv.p.wait(10)
    case('a port in use given with --port is an error (exit 3)', rc == 3 and 'cannot serve' in srv.stderr(),
         f'{rc} {srv.stderr()}')
    busy.close()
    r = subprocess.run([QBC, 'preview', '--port', 'http', BANK], capture_output=True, text=True)
    case('--port that is not a number is a usage error', r.returncode == 2 and '--port' in r.stderr, r.stderr)
    srv = Server(BANK)
    case('without --port it takes 8000 or the next free port', 8000 <= srv.port < 8100, srv.line)
    srv2 = Server(BANK)
    case('a second preview takes another port', srv2.port and srv2.port != srv.port, srv2.line)
    srv2.stop()
    srv.stop()
    # A bank too big for SCORM 1.2's saved state: the cards still show,
    # with the format's error over the page.
    big = os.path.join(WORK, 'big', 'big.qb')
    os.makedirs(os.path.dirname(big), exist_ok=True)
    with open(big, 'w') as f:
        f.write('bank: big\nlanguages: en\n\ntitle:\n  en: Big\n\n')
        for i in range(400):
            f.write(f'{i + 1}. q{i}\n   en: Question {i}?\n\n   * en: Yes\n   - en: No\n\n'
                    f'   explanation:\n     en: Because.\n\n')
    srv = Server('--port', '0', big)
    s = state(srv.port) if srv.port else None
    bb = s and s['banks'][0]
    case('a bank too big for SCORM 1.2 shows its cards and the format\'s error',
         bb and len(bb['questions']) == 400 and bb['questions'][0]['notes'].get('en') and not bb['scormBuild']
         and bb['failed'] and 'too big for SCORM 1.2' in bb['diagnostics'], str(bb and bb['diagnostics'])[:300])
    srv.stop()
    srv = Server('--host', '0.0.0.0', '--port', '0', BANK)
    case('--host another address says so', 'http://0.0.0.0:' in srv.line and 'not only this computer' in srv.line,
         srv.line)
    if srv.port:
        st1 = request(srv.port, '/', host=f'127.0.0.1:{srv.port}')[0]
        st2 = request(srv.port, '/', host=f'evil.example:{srv.port}')[0]
        case('on 0.0.0.0 an address is a valid Host, a name is not', st1 == 200 and st2 == 403, f'{st1} {st2}')
    srv.stop()
    page_language()


def page_language():
    """The page speaks the language of qbc's messages: its own words (the
    state's "ui"), its lang and its direction, chosen as the CLI's are."""
    # Every word index.html marks, and every one the script asks for, is
    # one the state gives.
    here = os.path.dirname(os.path.abspath(__file__))
    templates = os.path.join(here, '..', '..', 'templates', 'preview')
    html = open(os.path.join(templates, 'index.html'), encoding='utf-8').read()
    js = open(os.path.join(templates, 'preview.js'), encoding='utf-8').read()
    keys = set(re.findall(r'data-t(?:-title)?="(\w+)"', html)) | set(re.findall(r"\bsay\('(\w+)'", js))
    user = {'LC_ALL': '', 'LC_MESSAGES': '', 'LANG': ''}  # a user who chose no English
    words = {}
    for lang, want in (('en', 'Show answer'), ('sw', 'Onyesha jibu'), ('fr', 'Afficher la réponse'),
                       ('ar', 'اعرض الإجابة')):
        env = dict(user, LANGUAGE=lang) if lang != 'en' else {}
        srv = Server('--port', '0', BANK, env=env)
        st = state(srv.port) if srv.port else None
        srv.stop()
        ui = (st or {}).get('ui') or {}
        text = ui.get('text') or {}
        words[lang] = text
        case(f'LANGUAGE={lang}: the page says "{want}" in {lang}',
             ui.get('lang') == lang and text.get('showAnswer') == want,
             repr(ui)[:300])
        case(f'LANGUAGE={lang}: every word the page shows is in the state',
             keys and keys <= set(text), repr(sorted(keys - set(text))))
        case(f'LANGUAGE={lang}: written {"right to left" if lang == "ar" else "left to right"}',
             ui.get('dir') == ('rtl' if lang == 'ar' else 'ltr'), repr(ui.get('dir')))
    sw, en = words.get('sw', {}), words.get('en', {})
    same = sorted(k for k in en if k in sw and sw[k] == en[k] and k not in ('colType',))
    case('LANGUAGE=sw: no word of the page left in English', en and not same, repr(same))
    case('LANGUAGE=sw: the list\'s states in Kiswahili',
         sw.get('stStale') == 'yamepitwa na wakati' and sw.get('stNew') == 'mapya', repr(sw)[:200])
    case('LANGUAGE=fr: the heading keeps the bank\'s title in a French sentence',
         words.get('fr', {}).get('titleOf') == 'aperçu qbc : {title}', repr(words.get('fr', {}).get('titleOf')))


if __name__ == '__main__':
    try:
        main()
    finally:
        for p in servers:
            if p.poll() is None:
                p.kill()
                p.wait()
