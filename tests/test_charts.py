"""nessus.charts: altair's shared dict-to-schema converter gives what altair's own gives."""

from __future__ import annotations

import altair as alt
import pytest
from altair.utils import schemapi

from nessus import charts

ENCODINGS = [
    (alt.X, {"shorthand": "value:O"}),
    (alt.Y, {"shorthand": "probability:Q", "title": "probability"}),
    (alt.Tooltip, {"shorthand": "exact:N"}),
    (alt.StrokeWidthValue, {"condition": {"test": "datum.chosen", "value": 2}, "value": 0}),
    (alt.OpacityValue, {"value": 0.9}),
    (alt.Text, {"shorthand": "p:N"}),
]


@pytest.mark.parametrize(("channel", "dct"), ENCODINGS, ids=[c.__name__ for c, _ in ENCODINGS])
def test_the_shared_converter_builds_what_altair_builds(channel: type, dct: dict) -> None:
    charts.share_schema_converter()
    assert getattr(schemapi.SchemaBase.from_dict, "shared", False)
    ours = channel.from_dict(dct, validate=False)
    altairs = schemapi._FromDict(channel._default_wrapper_classes()).from_dict(dct, channel)
    assert type(ours) is type(altairs)
    assert ours.to_dict(validate=False) == altairs.to_dict(validate=False)


def test_a_chart_from_shorthands_equals_one_from_channel_objects() -> None:
    frame = {"value": [1, 2], "probability": [0.25, 0.75], "exact": ["1/4", "3/4"]}
    data = alt.Data(values=[dict(zip(frame, row)) for row in zip(*frame.values())])
    short = alt.Chart(data).mark_bar().encode(x="value:O", y="probability:Q", tooltip=["exact:N"])
    explicit = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X(field="value", type="ordinal"),
            y=alt.Y(field="probability", type="quantitative"),
            tooltip=[alt.Tooltip(field="exact", type="nominal")],
        )
    )
    assert short.to_dict() == explicit.to_dict()


def test_sharing_twice_changes_nothing() -> None:
    charts.share_schema_converter()
    first = schemapi.SchemaBase.from_dict
    charts.share_schema_converter()
    assert schemapi.SchemaBase.from_dict == first
