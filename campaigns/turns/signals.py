"""What the turn machinery tells the layers above it, as Django signals sent inside the command's
transaction (so a receiver's outbox rows commit or roll back with the command).

The turns layer never imports mail-out: campaigns.mailout.notices connects the receivers that
mail the seats (campaigns.apps.CampaignsConfig.ready). Every signal is sent with ``sender`` the
module that sends it and the keyword arguments listed.
"""

from django.dispatch import Signal

game_started = Signal()  # stream: turn 1 has opened
seat_joined = Signal()  # stream, seat, key_suffix: a seat taken after the start (observer, handover)
turn_published = Signal()  # stream, turn_number: a turn's results are public, the next turn open
deadline_moved = Signal()  # game, turn, note: the open turn's deadline moved (umpire, absence, outage)
turn_late = Signal()  # game, turn, missing: a deadline passed, grace opened for these sides
absence_declared = Signal()  # seat, absence, until, moved: a seat is away (moved: the turn if its deadline moved)
absence_ended = Signal()  # seat, today: a seat is back before the date it gave
seat_invited = Signal()  # seat, by: an invitation to tell the invitee of
invitation_declined = Signal()  # seat, user: a seat declined; the creator and umpire are told
side_offered = Signal()  # seat, user, by, token: a side offered to a standby, who takes it by the token's link
side_replaced = Signal()  # stream, seat, side, old_email, old_user, handover: a side handed to another player
address_renewed = Signal()  # seat, address, reason: a seat's secret reply address replaced
adjudication_failed = Signal()  # stream, turn_number, failure: the rule set raised; the turn is held (failures.py)
swept = Signal()  # now: the deadline sweep ran; receivers return a dict of counts to add to its own
rescue_due = Signal()  # now: queue again the work no one holds; receivers return a dict of counts


def merged_counts(responses) -> dict:
    """The dicts of counts the receivers of ``swept`` or ``rescue_due`` returned, as one."""
    out: dict = {}
    for _receiver, counts in responses:
        out.update(counts or {})
    return out
