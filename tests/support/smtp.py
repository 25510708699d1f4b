"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives,
and can refuse the first N messages with a temporary error."""

import email
import logging
import socket
from email import policy

import pytest
from aiosmtpd.controller import Controller


class Sink:
    def __init__(self):
        self.messages = []  # (envelope recipients, parsed message)
        self.raw: list[bytes] = []  # each accepted message's bytes, dot-stuffing undone
        self.refuse = 0
        self.refuse_to: set[str] = set()  # recipients whose messages are refused (451), every time
        self.sessions: list = []  # per message accepted, its connection's (host, port): one per session

    async def handle_DATA(self, server, session, envelope):
        if self.refuse > 0:
            self.refuse -= 1
            return "451 4.3.0 try again later"
        if self.refuse_to & set(envelope.rcpt_tos):
            return "451 4.3.0 try again later"
        self.messages.append((envelope.rcpt_tos, email.message_from_bytes(envelope.content, policy=policy.default)))
        self.raw.append(envelope.original_content)
        self.sessions.append(session.peer)
        return "250 OK"

    def to(self, address: str) -> list:
        return [msg for rcpt, msg in self.messages if address in rcpt]

    def clear(self):
        self.messages.clear()
        self.raw.clear()


def on_loopback(handler) -> tuple[Controller, int]:
    """An aiosmtpd server for ``handler`` on a free loopback port, started: (controller, port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd narrates every command
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    return controller, port


@pytest.fixture
def smtp(settings):
    sink = Sink()
    controller, port = on_loopback(sink)
    settings.EMAIL_BACKEND = "campaigns.mailout.smtp_backend.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    yield sink
    controller.stop()
