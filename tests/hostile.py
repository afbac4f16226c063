"""The worst values a parser can be handed, for every field of every form, every query parameter and
the API (tests/site/test_fuzz.py, tests/api/test_api.py, tests/ratings/test_replays.py). Not a test module."""

HOSTILE = {
    "nested list": b"[" * 1500 + b"]" * 1500,
    "nested move": b'{"type":"move","to":' + b"[" * 1500 + b"]" * 1500 + b"}",
    "nested object": b'{"a":' * 1000 + b"1" + b"}" * 1000,
    "NUL": b"a\x00b",
    "NUL in JSON": b'{"type":"move\\u0000","to":"\\u0000"}',
    "lone surrogate in JSON": b'{"type":"move","to":"\\ud800"}',
    "invalid UTF-8": b"\xff\xfe\xc3\x28\xed\xa0\x80",
    "huge number": b"9" * 5000,
    "huge negative number": b"-" + b"9" * 40,
    "huge exponent": b"1e999999",
    "huge number in JSON": b'{"type":"move","to":' + b"9" * 3000 + b"}",
    "infinity in JSON": b'{"type":"move","to":1e999,"x":NaN}',
}
