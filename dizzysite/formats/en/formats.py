# The site's one date style (settings.FORMAT_MODULE_PATH), in English: "Mon 29 Nov 2026, 19:17 UTC",
# in the reader's time zone. Templates name these formats; they never spell a format out.
DATETIME_FORMAT = "D j M Y, H:i T"
DATE_FORMAT = "j M Y"  # a day alone: "29 Nov 2026"
SHORT_DATETIME_FORMAT = "D j M, H:i T"
