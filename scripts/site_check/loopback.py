"""A small HTTP server on 127.0.0.1 for the checks that need one of the site's outside services (tiles, a
contact endpoint), running in a thread for the length of a `with`."""
import contextlib
import http.server
import threading


class Handler(http.server.BaseHTTPRequestHandler):
    """A request handler that answers in one call and logs nothing."""

    def reply(self, content_type, body):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_):
        pass


@contextlib.contextmanager
def serving(handler):
    """The address (`http://127.0.0.1:PORT`) while `handler`, a `Handler` subclass, answers there."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
