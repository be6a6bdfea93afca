"""The eligibility policy on the event form as rows an organizer fills in: a column of the list (a select of
the fixed columns and the other columns found on the event's list), a kind (is one of / is none of / is
from ... to ..., a whole number), the values (comma-separated; the values that occur in each column are
listed with their counts under the editor) and the range. Stored as the JSON ``tournament.eligibility_policy`` reads;
``Event.clean`` checks it again (programme spellings, limits)."""

from __future__ import annotations

from collections import Counter

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from tournament.eligibility_policy import MAX_CONDITIONS, PolicyError, parse_policy
from tournament.models import EligibilityEntry, Event

FIXED_COLUMNS = ("programme", "department", "year")
KINDS = (("one_of", "is one of"), ("not_one_of", "is none of"), ("range", "is from … to … (a number)"))
BLANK_ROWS = 2
MAX_ROWS = MAX_CONDITIONS + BLANK_ROWS
VALUES_SHOWN = 30
PARTS = ("column", "kind", "values", "low", "high", "remove")


def column_values(event: Event | None) -> dict[str, Counter]:
    """Each column a policy can name (the fixed ones first, then the list's other columns in name order)
    with how often each value occurs on the event's list."""
    counts: dict[str, Counter] = {name: Counter() for name in FIXED_COLUMNS}
    if event is None or event.pk is None:
        return counts
    others: dict[str, Counter] = {}
    for row in EligibilityEntry.objects.filter(event=event).values(*FIXED_COLUMNS, "extra").iterator():
        for name in FIXED_COLUMNS:
            if row[name] not in (None, ""):
                counts[name][str(row[name])] += 1
        extra = row["extra"] if isinstance(row["extra"], dict) else {}
        for name, value in extra.items():
            text = " ".join(str(value).split())
            if text:
                others.setdefault(str(name).strip().lower(), Counter())[text] += 1
    return {**counts, **dict(sorted(others.items()))}


def rows_of(policy) -> list[dict]:
    """The editor's rows for a stored policy (anything unreadable shows as no rows)."""
    try:
        conditions = parse_policy(policy).conditions
    except PolicyError:
        return []
    rows = []
    for c in conditions:
        kind = "one_of" if c.one_of else "not_one_of" if c.not_one_of else "range"
        rows.append({"column": c.column, "kind": kind, "values": ", ".join(c.one_of or c.not_one_of),
                     "low": "" if c.low is None else str(c.low), "high": "" if c.high is None else str(c.high)})
    return rows


class PolicyEditor(forms.Widget):
    """Renders the rows; reads them back as a list of row dicts (the field turns them into the policy)."""

    class Media:
        css = {"all": ["css/policy_editor.css"]}  # its sizes: the Content-Security-Policy forbids style attributes

    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.columns: dict[str, Counter] = column_values(None)

    def value_from_datadict(self, data, files, name):
        try:
            count = min(int(data.get(f"{name}-rows", 0)), MAX_ROWS)
        except (TypeError, ValueError):
            count = 0
        return [{part: str(data.get(f"{name}-{index}-{part}", "")).strip() for part in PARTS}
                for index in range(max(count, 0))]

    def value_omitted_from_data(self, data, files, name):
        return f"{name}-rows" not in data

    def render(self, name, value, attrs=None, renderer=None):
        rows = value if isinstance(value, list) and all(isinstance(r, dict) and "kind" in r for r in value) \
            else rows_of(value)
        rows = [row for row in rows if any(row.get(part) for part in ("column", "values", "low", "high"))]
        rows = rows[:MAX_CONDITIONS] + [{}] * BLANK_ROWS
        columns = list(self.columns)
        body = format_html_join("", "{}", ((self._row(name, index, row, columns),) for index, row in enumerate(rows)))
        return format_html(
            '<div class="policy-editor" id="{name}-editor">'
            '<input type="hidden" name="{name}-rows" value="{count}">'
            '<div class="policy-scroll"><table><thead><tr><th>Column</th><th>Condition</th><th>Values (comma-separated)</th>'
            "<th>From</th><th>To</th><th>Remove</th></tr></thead><tbody>{body}</tbody></table></div>"
            "{values}</div>",
            name=name, count=len(rows), body=body, values=self._values_on_list())

    def _row(self, name, index, row, columns):
        column = row.get("column", "")
        names = columns + ([column] if column and column not in columns else [])
        column_options = format_html_join("", '<option value="{}"{}>{}</option>', (
            (option, " selected" if option == column else "", option or "—") for option in ["", *names]))
        kind = row.get("kind") or "one_of"
        kind_options = format_html_join("", '<option value="{}"{}>{}</option>', (
            (value, " selected" if value == kind else "", label) for value, label in KINDS))
        field = f"{name}-{index}"
        return format_html(
            '<tr class="policy-row">'
            '<td><select name="{f}-column" class="policy-select" aria-label="Column of condition {n}">{columns}</select></td>'
            '<td><select name="{f}-kind" class="policy-select" aria-label="Kind of condition {n}">{kinds}</select></td>'
            '<td><input type="text" name="{f}-values" value="{values}" size="26" maxlength="4000" class="policy-values-input" '
            'aria-label="Values of condition {n}" placeholder="e.g. UG"></td>'
            '<td><input type="number" name="{f}-low" value="{low}" class="policy-number" aria-label="From (condition {n})"></td>'
            '<td><input type="number" name="{f}-high" value="{high}" class="policy-number" aria-label="To (condition {n})"></td>'
            '<td><input type="checkbox" name="{f}-remove" value="1"{removed} aria-label="Remove condition {n}"></td>'
            "</tr>",
            f=field, n=index + 1, columns=column_options, kinds=kind_options, values=row.get("values", ""),
            low=row.get("low", ""), high=row.get("high", ""), removed=" checked" if row.get("remove") else "")

    def _values_on_list(self):
        listed = [(name, counts) for name, counts in self.columns.items() if counts]
        if not listed:
            return mark_safe('<p class="help">No eligibility list yet: its values, and any other columns it '
                             "has (such as section or hostel), are offered here once it is uploaded.</p>")
        items = format_html_join("", "<li><b>{}</b>: {}{}</li>", (
            (name, format_html_join(" · ", "{} ({})", counts.most_common(VALUES_SHOWN)),
             f" · and {len(counts) - VALUES_SHOWN} more" if len(counts) > VALUES_SHOWN else "")
            for name, counts in listed))
        return format_html('<div class="policy-values"><p>Values on the list (how many entries have each):</p>'
                           '<ul>{}</ul></div>', items)


class PolicyField(forms.Field):
    """The editor's rows as the policy's JSON; every row's problem is named with its number."""

    widget = PolicyEditor

    def __init__(self, **kwargs):
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def prepare_value(self, value):
        return value

    def to_python(self, value):
        if not isinstance(value, list):
            return []
        policy, errors = [], []
        filled = [row for row in value if isinstance(row, dict) and any(
            row.get(part) for part in ("column", "values", "low", "high"))]
        for number, row in enumerate(filled, start=1):  # numbered as the form shows them again
            if row.get("remove"):
                continue
            condition, problem = _condition(row, number)
            if problem:
                errors.append(problem)
            else:
                policy.append(condition)
        if errors:
            raise forms.ValidationError(errors)
        try:
            parse_policy(policy)
        except PolicyError as error:
            raise forms.ValidationError(str(error)) from error
        return policy

    def has_changed(self, initial, data):
        try:
            return parse_policy(initial or []).to_json() != self.to_python(data)
        except (PolicyError, forms.ValidationError):
            return True


def _condition(row: dict, number: int) -> tuple[dict, str]:
    column = row.get("column", "")
    where = f"Condition {number}" + (f" ({column})" if column else "")
    if not column:
        return {}, f"{where}: choose the column it is about."
    if len(column) > 100:
        return {}, f"{where}: the column name is longer than 100 characters."
    kind = row.get("kind") or "one_of"
    if kind == "range":
        if row.get("values"):
            return {}, f"{where}: a number range takes From and To, not values (or choose “is one of”)."
        bounds = {}
        for part, key in (("low", "from"), ("high", "to")):
            text = row.get(part, "")
            if text:
                try:
                    bounds[key] = int(text)
                except ValueError:
                    return {}, f"{where}: {key.capitalize()} must be a whole number, not “{text[:40]}”."
        if not bounds:
            return {}, f"{where}: give From, To or both."
        if len(bounds) == 2 and bounds["from"] > bounds["to"]:
            return {}, f"{where}: From ({bounds['from']}) is larger than To ({bounds['to']})."
        return {"column": column, **bounds}, ""
    if kind not in ("one_of", "not_one_of"):
        return {}, f"{where}: choose what kind of condition it is."
    if row.get("low") or row.get("high"):
        return {}, f"{where}: From and To are for “is a whole number from … to …”; this condition takes values."
    values = list(dict.fromkeys(v for v in (" ".join(part.split()) for part in row.get("values", "").split(",")) if v))
    if not values:
        return {}, f"{where}: give the values, separated by commas (e.g. UG)."
    return {"column": column, kind: values}, ""


class EventAdminForm(forms.ModelForm):
    """The event form with the policy editor offering the event's own list's columns and values."""

    class Meta:
        model = Event
        fields = ["eligibility_policy"]  # the admin passes the fieldsets' fields
        field_classes = {"eligibility_policy": PolicyField}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "eligibility_policy" in self.fields:
            self.fields["eligibility_policy"].widget.columns = column_values(self.instance)
            self.fields["eligibility_policy"].help_text = (
                "Who on the list may register (when registration is list-only), by the list's own columns: every "
                "condition must hold. No conditions: everyone on the list. Tick Remove to drop a condition; save "
                "to get more rows.")
