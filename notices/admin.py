from django.contrib import admin

from notices.models import NoticeConsent, NoticeLog


@admin.register(NoticeConsent)
class NoticeConsentAdmin(admin.ModelAdmin):
    list_display = ["pk", "player", "given_at", "given_on", "language", "withdrawn_at"]
    readonly_fields = [field.name for field in NoticeConsent._meta.fields]


@admin.register(NoticeLog)
class NoticeLogAdmin(admin.ModelAdmin):
    list_display = ["pk", "kind", "channel", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status", "channel", "kind"]
    readonly_fields = [field.name for field in NoticeLog._meta.fields]
