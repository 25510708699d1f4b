"""The mail commands' help, mailed with every seat's first mail of a game (reports.queue_game_start)
and by mail-in in answer to HELP (campaigns.mailin.commands reads the words it lists)."""

from django.utils.translation import gettext_lazy

COMMANDS_HELP = gettext_lazy("""\
MAIL COMMANDS

Reply to a report (its Reply-To is your seat's own secret address) and write,
above any quoted text:
  your orders, one per line (they replace your orders for this turn; send
  again as often as you like until the turn closes), or an explicit block:
      ORDERS
      ...
      END
  READY                  process the turn as soon as every side is ready (default with orders)
  WAIT                   do not process early; wait for the deadline
  STATUS                 the turn, its deadline and your orders in force
  RESEND                 the latest report again
  HELP                   this text and the order language
  ABSENT UNTIL 2026-12-24  tell the umpire you are away until that date
  BACK                   you are back before that date: reminders start again
  MESSAGE umpire         the lines below, up to END, go to the umpire
  MESSAGE <side>         ... or to another side, where the game allows it
  REPLACE                your orders below replace those in force (the default)
In Russian: ГОТОВ, ЖДУ, СТАТУС, ПОВТОРИ, СПРАВКА, ОТСУТСТВУЮ ДО 2026-12-24,
ВЕРНУЛСЯ, СООБЩЕНИЕ посреднику (or красным, синим), ЗАМЕНИТЬ, ПРИКАЗЫ ... КОНЕЦ.
A line that begins with an order word is an order; any other line (a greeting,
a sign-off) is not read, and the acknowledgement lists it. Quoted text and
signatures are never read.
""")
