package score

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// ExactMatch ("exact_match") passes when the answer text equals the
// expected text, both trimmed of surrounding whitespace.
//
// Like every text check (contains, not_contains, matches, starts_with,
// ends_with, min_length, max_length, max_words, is_url, is_email) it reads
// the answer as text: a JSON string's value, any other JSON value's compact
// JSON encoding, and the empty text for no output or JSON null; surrounding
// whitespace is trimmed. Text compares code point by code point with no
// Unicode normalization; case_sensitive=false compares Unicode case-folded
// text ("STRASSE" equals "straße").
//
// Params:
//   - "value" (string, optional): the expected text. Without it the
//     question's expected_answer is used, read as text like the output
//     (a JSON string's value, another JSON value's compact encoding); a
//     question without an expected answer (absent or null) makes the
//     metric an error of kind "missing_expected_answer".
//   - "case_sensitive" (boolean, default true).
//
// A non-string answer (e.g. the number 42) is compared by its compact JSON
// encoding, so it matches the expected text "42"; use equals to tell them
// apart.
type ExactMatch struct {
	// Value replaces the expected answer when non-nil.
	Value *string
	// IgnoreCase compares case-folded text (param case_sensitive: false).
	IgnoreCase bool
}

var _ Scorer = (*ExactMatch)(nil)

func newExactMatch(raw json.RawMessage) (*ExactMatch, error) {
	p, err := parseParams(raw, "value", "case_sensitive")
	if err != nil {
		return nil, err
	}
	c := &ExactMatch{}
	if v, ok, err := p.text("value", false); err != nil {
		return nil, err
	} else if ok {
		c.Value = &v
	}
	sensitive, err := p.boolean("case_sensitive", true)
	if err != nil {
		return nil, err
	}
	c.IgnoreCase = !sensitive
	return c, nil
}

// Score compares the answer text with the expected text.
func (c *ExactMatch) Score(_ context.Context, s Sample) (Assessment, error) {
	var want string
	if c.Value != nil {
		want = strings.TrimSpace(*c.Value)
	} else {
		if isNull(s.ExpectedAnswer) {
			return Assessment{}, &Error{
				Kind:    "missing_expected_answer",
				Message: `exact_match needs the question's expected_answer or a "value" param`,
			}
		}
		want = answerText(s.ExpectedAnswer)
	}
	got := answerText(s.Output)
	note := caseNote(c.IgnoreCase)
	if fold(got, c.IgnoreCase) == fold(want, c.IgnoreCase) {
		return Assessment{Score: 1, Reason: fmt.Sprintf("output equals the expected text %s%s", quote(want), note)}, nil
	}
	return Assessment{Score: 0, Reason: fmt.Sprintf("%s differs from the expected text %s%s", describeText(got), quote(want), note)}, nil
}

// Contains ("contains") passes when the answer text (read as for
// ExactMatch) contains a value. An object answer is searched in its
// compact JSON encoding.
//
// Params: exactly one of "value" (non-empty string) or "values" (non-empty
// array of non-empty strings); "case_sensitive" (boolean, default true).
// Score: the fraction of the values found (1 or 0 for a single value).
type Contains struct {
	// Values are looked for in the answer text.
	Values []string
	// IgnoreCase compares case-folded text (param case_sensitive: false).
	IgnoreCase bool
}

var _ Scorer = (*Contains)(nil)

func newContains(raw json.RawMessage) (*Contains, error) {
	values, ignoreCase, err := substringParams(raw)
	if err != nil {
		return nil, err
	}
	return &Contains{Values: values, IgnoreCase: ignoreCase}, nil
}

// Score counts the values found in the answer text.
func (c *Contains) Score(_ context.Context, s Sample) (Assessment, error) {
	if len(c.Values) == 0 {
		return Assessment{}, &Error{Kind: "misconfigured", Message: "contains has no values to look for"}
	}
	got := answerText(s.Output)
	found, missing := partition(got, c.Values, c.IgnoreCase)
	note := caseNote(c.IgnoreCase)
	score := float64(len(found)) / float64(len(c.Values))
	switch {
	case len(missing) == 0 && len(found) == 1:
		return Assessment{Score: 1, Reason: fmt.Sprintf("output contains %s%s", quote(found[0]), note)}, nil
	case len(missing) == 0:
		return Assessment{Score: 1, Reason: fmt.Sprintf("output contains all %d values%s", len(found), note)}, nil
	case len(c.Values) == 1:
		return Assessment{Score: 0, Reason: fmt.Sprintf("%s does not contain %s%s", describeText(got), quote(missing[0]), note)}, nil
	}
	return Assessment{Score: score, Reason: fmt.Sprintf("output contains %d of %d values%s; missing %s",
		len(found), len(c.Values), note, listQuoted(missing))}, nil
}

// NotContains ("not_contains") passes when the answer text (read as for
// ExactMatch) contains none of the forbidden values. An empty answer
// passes.
//
// Params: exactly one of "value" (non-empty string) or "values" (non-empty
// array of non-empty strings); "case_sensitive" (boolean, default true).
// Score: the fraction of the values absent (1 or 0 for a single value).
type NotContains struct {
	// Values are forbidden in the answer text.
	Values []string
	// IgnoreCase compares case-folded text (param case_sensitive: false).
	IgnoreCase bool
}

var _ Scorer = (*NotContains)(nil)

func newNotContains(raw json.RawMessage) (*NotContains, error) {
	values, ignoreCase, err := substringParams(raw)
	if err != nil {
		return nil, err
	}
	return &NotContains{Values: values, IgnoreCase: ignoreCase}, nil
}

// Score counts the forbidden values absent from the answer text.
func (c *NotContains) Score(_ context.Context, s Sample) (Assessment, error) {
	if len(c.Values) == 0 {
		return Assessment{}, &Error{Kind: "misconfigured", Message: "not_contains has no values to look for"}
	}
	got := answerText(s.Output)
	found, absent := partition(got, c.Values, c.IgnoreCase)
	note := caseNote(c.IgnoreCase)
	if len(found) == 0 {
		return Assessment{Score: 1, Reason: fmt.Sprintf("%s contains none of %s%s", describeText(got), listQuoted(c.Values), note)}, nil
	}
	score := float64(len(absent)) / float64(len(c.Values))
	return Assessment{Score: score, Reason: fmt.Sprintf("output contains forbidden %s%s", listQuoted(found), note)}, nil
}

// substringParams reads the params shared by contains and not_contains.
func substringParams(raw json.RawMessage) (values []string, ignoreCase bool, err error) {
	p, err := parseParams(raw, "value", "values", "case_sensitive")
	if err != nil {
		return nil, false, err
	}
	if p.has("value") == p.has("values") {
		return nil, false, fmt.Errorf(`%w: params "value" and "values": expected exactly one of them`, ErrInvalidParams)
	}
	if p.has("value") {
		v, err := p.requiredText("value")
		if err != nil {
			return nil, false, err
		}
		values = []string{v}
	} else if values, _, err = p.texts("values"); err != nil {
		return nil, false, err
	}
	sensitive, err := p.boolean("case_sensitive", true)
	if err != nil {
		return nil, false, err
	}
	return values, !sensitive, nil
}

// partition splits values into those found in text and those not found.
func partition(text string, values []string, ignoreCase bool) (found, missing []string) {
	hay := fold(text, ignoreCase)
	for _, v := range values {
		if strings.Contains(hay, fold(v, ignoreCase)) {
			found = append(found, v)
		} else {
			missing = append(missing, v)
		}
	}
	return found, missing
}

// listQuoted quotes up to five values and counts the rest.
func listQuoted(values []string) string {
	const shown = 5
	parts := quoteAll(values[:min(len(values), shown)])
	if len(values) > shown {
		parts = append(parts, fmt.Sprintf("and %d more", len(values)-shown))
	}
	return strings.Join(parts, ", ")
}

// Matches ("matches") passes when a regular expression matches anywhere in
// the answer text (read as for ExactMatch; use ^ and $ to anchor it).
//
// Params: "pattern" (non-empty string, Go RE2 syntax, compiled when the
// suite is loaded; Perl look-arounds and backreferences are rejected);
// "case_sensitive" (boolean, default true; false adds the (?i) flag).
type Matches struct {
	// Pattern is the compiled expression, with (?i) when case is ignored.
	Pattern *regexp.Regexp
}

var _ Scorer = (*Matches)(nil)

func newMatches(raw json.RawMessage) (*Matches, error) {
	p, err := parseParams(raw, "pattern", "case_sensitive")
	if err != nil {
		return nil, err
	}
	pattern, err := p.requiredText("pattern")
	if err != nil {
		return nil, err
	}
	sensitive, err := p.boolean("case_sensitive", true)
	if err != nil {
		return nil, err
	}
	if !sensitive {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("%w: param \"pattern\": expected a Go (RE2) regular expression: %v", ErrInvalidParams, err)
	}
	return &Matches{Pattern: re}, nil
}

// Score reports whether the pattern matches the answer text.
func (c *Matches) Score(_ context.Context, s Sample) (Assessment, error) {
	if c.Pattern == nil {
		return Assessment{}, &Error{Kind: "misconfigured", Message: "matches has no pattern"}
	}
	got := answerText(s.Output)
	loc := c.Pattern.FindStringIndex(got)
	if loc == nil {
		return Assessment{Score: 0, Reason: fmt.Sprintf("%s does not match the pattern %s", describeText(got), quote(c.Pattern.String()))}, nil
	}
	return Assessment{Score: 1, Reason: fmt.Sprintf("output matches the pattern %s at %s", quote(c.Pattern.String()), quote(got[loc[0]:loc[1]]))}, nil
}

// StartsWith ("starts_with") passes when the answer text (read as for
// ExactMatch, so trimmed) begins with a value.
//
// Params: "value" (non-empty string); "case_sensitive" (boolean, default true).
type StartsWith struct {
	// Value is the expected beginning.
	Value string
	// IgnoreCase compares case-folded text (param case_sensitive: false).
	IgnoreCase bool
}

var _ Scorer = (*StartsWith)(nil)

func newStartsWith(raw json.RawMessage) (*StartsWith, error) {
	v, ignoreCase, err := affixParams(raw)
	if err != nil {
		return nil, err
	}
	return &StartsWith{Value: v, IgnoreCase: ignoreCase}, nil
}

// Score reports whether the answer text begins with the value.
func (c *StartsWith) Score(_ context.Context, s Sample) (Assessment, error) {
	got := answerText(s.Output)
	ok := strings.HasPrefix(fold(got, c.IgnoreCase), fold(c.Value, c.IgnoreCase))
	return affixAssessment(ok, got, "start", c.Value, c.IgnoreCase), nil
}

// EndsWith ("ends_with") passes when the answer text (read as for
// ExactMatch, so trimmed) ends with a value.
//
// Params: "value" (non-empty string); "case_sensitive" (boolean, default true).
type EndsWith struct {
	// Value is the expected ending.
	Value string
	// IgnoreCase compares case-folded text (param case_sensitive: false).
	IgnoreCase bool
}

var _ Scorer = (*EndsWith)(nil)

func newEndsWith(raw json.RawMessage) (*EndsWith, error) {
	v, ignoreCase, err := affixParams(raw)
	if err != nil {
		return nil, err
	}
	return &EndsWith{Value: v, IgnoreCase: ignoreCase}, nil
}

// Score reports whether the answer text ends with the value.
func (c *EndsWith) Score(_ context.Context, s Sample) (Assessment, error) {
	got := answerText(s.Output)
	ok := strings.HasSuffix(fold(got, c.IgnoreCase), fold(c.Value, c.IgnoreCase))
	return affixAssessment(ok, got, "end", c.Value, c.IgnoreCase), nil
}

func affixParams(raw json.RawMessage) (string, bool, error) {
	p, err := parseParams(raw, "value", "case_sensitive")
	if err != nil {
		return "", false, err
	}
	v, err := p.requiredText("value")
	if err != nil {
		return "", false, err
	}
	sensitive, err := p.boolean("case_sensitive", true)
	if err != nil {
		return "", false, err
	}
	return v, !sensitive, nil
}

func affixAssessment(ok bool, got, where, value string, ignoreCase bool) Assessment {
	if ok {
		return Assessment{Score: 1, Reason: fmt.Sprintf("output %ss with %s%s", where, quote(value), caseNote(ignoreCase))}
	}
	return Assessment{Score: 0, Reason: fmt.Sprintf("%s does not %s with %s%s", describeText(got), where, quote(value), caseNote(ignoreCase))}
}
