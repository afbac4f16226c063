# The site's one date style in Dutch: "ma 29 nov 2026, 19:17 UTC" (Dutch writes the month small:
# "b", where English's "M" capitalises it).
DATETIME_FORMAT = "D j b Y, H:i T"
DATE_FORMAT = "j b Y"  # "29 nov 2026"
SHORT_DATETIME_FORMAT = "D j b, H:i T"
