"""The campaign's own record: an append-only, hash-chained log like a game's (campaigns/log)."""

import pgtrigger
from django.db import models

from campaigns.models import Campaign


class CampaignEvent(models.Model):
    """One entry of a campaign's record: a battle joined, spawned, finished or resolved, with the
    head hashes of the game logs it links (record.py). Never updated, never deleted."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="record", db_index=False)
    seq = models.BigIntegerField()
    type = models.CharField(max_length=80)
    payload = models.JSONField()
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "seq"], name="campaign_event_seq_unique")]
        triggers = [
            pgtrigger.Protect(name="campaign_event_append_only", operation=pgtrigger.Update | pgtrigger.Delete),
        ]

    def __str__(self):
        return f"campaign {self.campaign_id}#{self.seq} {self.type}"


class LegacyRecordName(models.Model):
    """The name a record begun before campaigns had uids is hashed with: ``campaign:<id>``, the
    campaign's database id where the record was begun (battles migration 0002 wrote one for every
    record there was; import_campaign writes the one a moved campaign brings). Every other record is
    hashed with ``campaign:<uid>`` (record.campaign_uid). Never changed: a record keeps its name."""

    campaign = models.OneToOneField(
        Campaign, primary_key=True, on_delete=models.PROTECT, related_name="legacy_record_name"
    )
    name = models.CharField(max_length=80)

    class Meta:
        triggers = [
            pgtrigger.Protect(name="legacy_record_name_fixed", operation=pgtrigger.Update | pgtrigger.Delete),
        ]

    def __str__(self):
        return f"campaign {self.campaign_id}: record hashed as {self.name}"
