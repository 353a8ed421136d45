package score

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// The deterministic checks. Each evaluator type below is a Go type whose
// doc comment lists its params; in a suite file they look like
//
//	{"type": "contains", "params": {"value": "30 days", "case_sensitive": false}, "threshold": 1.0}
//
// Params are a JSON object (absent or null means none). Unknown params,
// missing required params and params of the wrong JSON type are rejected
// when the suite is loaded, with an error wrapping ErrInvalidParams that
// names the param and what was expected.
//
// How each check reads the answer is documented on its type: the text
// checks read the answer text as ExactMatch describes; equals, valid_json
// and json_schema read JSON values; max_latency_ms and max_cost read the
// measured duration and the agent's reported cost, not the answer.
//
// Every check scores 1 or 0, except contains and not_contains with several
// values, which score the fraction of values that passed. Reasons quote at
// most 80 characters of any text.
//
// Type names and their Go types:
//
//	exact_match     ExactMatch     starts_with   StartsWith    is_url          IsURL
//	equals          Equals         ends_with     EndsWith      is_email        IsEmail
//	contains        Contains       valid_json    ValidJSON     max_latency_ms  MaxLatencyMS
//	not_contains    NotContains    json_schema   JSONSchema    max_cost        MaxCost
//	matches         Matches        min_length    MinLength     max_words       MaxWords
//	                               max_length    MaxLength
func addChecks(r Registry) {
	r["exact_match"] = expectedUnlessValue(define(newExactMatch))
	r["equals"] = expectedUnlessValue(define(newEquals))
	r["contains"] = define(newContains)
	r["not_contains"] = define(newNotContains)
	r["matches"] = define(newMatches)
	r["starts_with"] = define(newStartsWith)
	r["ends_with"] = define(newEndsWith)
	r["valid_json"] = define(newValidJSON)
	r["json_schema"] = define(newJSONSchema)
	r["min_length"] = define(newMinLength)
	r["max_length"] = define(newMaxLength)
	r["max_words"] = define(newMaxWords)
	r["is_url"] = define(newIsURL)
	r["is_email"] = define(newIsEmail)
	r["max_latency_ms"] = define(newMaxLatencyMS)
	r["max_cost"] = define(newMaxCost)
}

// expectedUnlessValue declares that a check compares with the question's
// expected_answer unless its "value" param gives the expected value.
func expectedUnlessValue(d Definition) Definition {
	d.Needs = []string{NeedExpectedAnswer}
	d.NeedsUnless = "value"
	return d
}

// define adapts a typed constructor to a Definition, never returning a
// typed nil inside the Scorer interface.
func define[S Scorer](build func(json.RawMessage) (S, error)) Definition {
	return Definition{New: func(params json.RawMessage, _ Judge) (Scorer, error) {
		s, err := build(params)
		if err != nil {
			return nil, err
		}
		return s, nil
	}}
}

// answerText is the text checks' view of a JSON answer: a string's value,
// any other value's compact encoding, "" for no output or null; trimmed.
func answerText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return strings.TrimSpace(s)
		}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err == nil {
		return buf.String()
	}
	return strings.TrimSpace(string(raw))
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// fold prepares text for comparison: unchanged when case matters,
// Unicode case-folded otherwise. A Caser is not safe for concurrent use,
// so each call makes its own.
func fold(s string, ignoreCase bool) string {
	if !ignoreCase {
		return s
	}
	return cases.Fold().String(s)
}

// caseNote is appended to reasons of case-insensitive comparisons.
func caseNote(ignoreCase bool) string {
	if ignoreCase {
		return " (ignoring case)"
	}
	return ""
}

// maxQuoted is how many characters of untrusted text a reason repeats.
const maxQuoted = 80

// quote renders untrusted text for a reason: at most maxQuoted characters,
// Go-quoted so control characters and quotes cannot break the line.
func quote(s string) string {
	short, cut := truncate(s, maxQuoted)
	if !cut {
		return strconv.Quote(s)
	}
	return strconv.Quote(short) + "… (" + strconv.Itoa(utf8.RuneCountInString(s)) + " chars)"
}

// clip shortens untrusted text to maxQuoted characters and escapes control
// characters, without surrounding quotes (for JSON excerpts and call names).
func clip(s string) string { return clipTo(s, maxQuoted) }

// clipTo is clip with another length (for longer trusted messages).
func clipTo(s string, n int) string {
	short, cut := truncate(s, n)
	var b strings.Builder
	for _, r := range short {
		if unicode.IsControl(r) || r == utf8.RuneError {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	if cut {
		b.WriteString("…")
	}
	return b.String()
}

// truncate cuts s after n characters.
func truncate(s string, n int) (string, bool) {
	count := 0
	for i := range s {
		if count == n {
			return s[:i], true
		}
		count++
	}
	return s, false
}

// describeText names the answer text in reasons ("empty output" or a quote).
func describeText(s string) string {
	if s == "" {
		return "empty output"
	}
	return "output " + quote(s)
}
