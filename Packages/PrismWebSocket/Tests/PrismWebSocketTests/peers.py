"""WebSocket peers for PrismWebSocket's tests, in one process.

A real server (Python's `websockets`, not Prism's) and hostile raw peers that it would never be,
on two ports printed as the first line of standard output: "<websockets port> <raw port>".

websockets routes:
  /echo             echoes every message; first sends {"path", "headers", "subprotocol"} as JSON
  /close/<code>     sends "bye", then closes with <code> and the reason "reason-<code>"
  /flood/<n>/<kib>  sends <n> binary messages of <kib> KiB (each starts with its index, 4 bytes)
  /sent             sends how many messages /flood has handed to its connection so far
  /refuse/<status>  answers the upgrade with <status> (503 with Retry-After: 0)
  /auth             refuses with 401 unless Authorization is "Bearer fresh"; then as /echo
  /big/<kib>        sends one text message of <kib> KiB
raw routes (after a correct handshake):
  /silent           reads and ignores everything: no pong, no close answer
  /huge-frame       sends a frame header announcing 2^62 bytes
  /masked           sends a masked text frame (servers must not mask)
  /bad-utf8         sends a text frame that is not UTF-8
  /no-close-frame   sends "hi", then, once the client sent anything, ends the TCP connection
                    without a close frame
"""
import asyncio
import base64
import hashlib
import json
import struct
import sys

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

flood_sent = 0


def refuse(connection, request):
    path = request.path
    if path.startswith("/refuse/"):
        status = int(path.split("/")[2])
        headers = Headers([("Content-Type", "text/plain")])
        if status == 503:
            headers["Retry-After"] = "0"
        return Response(status, "Refused", headers, b"refused\n")
    if path == "/auth" and request.headers.get("Authorization") != "Bearer fresh":
        return Response(401, "Unauthorized", Headers([("WWW-Authenticate", "Bearer")]), b"")
    return None


async def handler(connection):
    global flood_sent
    path = connection.request.path
    if path in ("/echo", "/auth"):
        await connection.send(
            json.dumps(
                {
                    "path": path,
                    "headers": {k.lower(): v for k, v in connection.request.headers.raw_items()},
                    "subprotocol": connection.subprotocol,
                }
            )
        )
        async for message in connection:
            await connection.send(message)
    elif path.startswith("/close/"):
        code = int(path.split("/")[2])
        await connection.send("bye")
        await connection.close(code, f"reason-{code}")
    elif path.startswith("/flood/"):
        _, _, count, kib = path.split("/")
        flood_sent = 0
        for index in range(int(count)):
            await connection.send(struct.pack(">I", index) + bytes(int(kib) * 1024 - 4))
            flood_sent = index + 1
        await connection.wait_closed()
    elif path == "/sent":
        await connection.send(str(flood_sent))
        await connection.wait_closed()
    elif path.startswith("/big/"):
        await connection.send("x" * (int(path.split("/")[2]) * 1024))
        await connection.wait_closed()


async def raw_peer(reader, writer):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    path = lines[0].split(" ")[1]
    key = next(line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("sec-websocket-key:"))
    accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
    writer.write(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
    )
    await writer.drain()
    if path == "/huge-frame":
        writer.write(b"\x82\x7f" + struct.pack(">Q", 1 << 62))
        await writer.drain()
    elif path == "/masked":
        payload = b"masked"
        mask = b"\x01\x02\x03\x04"
        writer.write(b"\x81" + bytes([0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        await writer.drain()
    elif path == "/bad-utf8":
        writer.write(b"\x81\x02\xc3\x28")
        await writer.drain()
    elif path == "/no-close-frame":
        writer.write(b"\x81\x02hi")
        await writer.drain()
        # Ends the connection once the client answered "hi" (any bytes): the end comes after the
        # message, by an order rather than a wait.
        await reader.read(1)
        writer.close()
        return
    # /silent, and after the others: read and ignore until the client goes.
    while await reader.read(65536):
        pass
    writer.close()


async def main():
    async with serve(handler, "127.0.0.1", 0, process_request=refuse, subprotocols=None,
                     select_subprotocol=lambda connection, offered: offered[0] if offered else None,
                     max_size=None, ping_interval=None) as server:
        raw = await asyncio.start_server(raw_peer, "127.0.0.1", 0)
        ws_port = server.sockets[0].getsockname()[1]
        raw_port = raw.sockets[0].getsockname()[1]
        print(ws_port, raw_port, flush=True)
        # Ends when the test closes standard input.
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


asyncio.run(main())
