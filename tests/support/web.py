"""The web pages as the tests read them: a game's URL, a page's text (no template code left), orders posted."""

import html

from django.urls import reverse


def game_url(game, name="game"):
    return reverse(name, args=[game.pk])


def page(client, game, name="game", query="") -> str:
    response = client.get(game_url(game, name) + query)
    assert response.status_code == 200
    text = response.content.decode()
    assert "{{" not in text and "{%" not in text, "template code reached the page"
    return html.unescape(text)


def post_orders(client, game, text, ready=True):
    data = {"text": text}
    if ready:
        data["ready"] = "on"
    return client.post(game_url(game), data)
