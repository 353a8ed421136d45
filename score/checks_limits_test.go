package score

import (
	"math"
	"strings"
	"testing"
)

func TestMinLength_Score(t *testing.T) {
	runChecks(t, "min_length", []checkCase{
		{name: "long enough", params: `{"limit": 5}`, sample: says("Hello"), score: 1, reason: "output has 5 characters (limit: at least 5)"},
		{name: "too short", params: `{"limit": 6}`, sample: says("Hello"), score: 0, reason: "output has 5 characters; expected at least 6"},
		{name: "code points not bytes", params: `{"limit": 4}`, sample: says("東京"), score: 0, reason: "2 characters"},
		{name: "trimmed", params: `{"limit": 3}`, sample: says("  ab \n"), score: 0},
		{name: "empty output", params: `{"limit": 1}`, sample: Sample{}, score: 0, reason: "0 characters"},
		{name: "zero limit", params: `{"limit": 0}`, sample: answer(`null`), score: 1},
	})
}

func TestMaxLength_Score(t *testing.T) {
	runChecks(t, "max_length", []checkCase{
		{name: "short enough", params: `{"limit": 5}`, sample: says("Hello"), score: 1},
		{name: "too long", params: `{"limit": 4}`, sample: says("Hello"), score: 0, reason: "expected at most 4"},
		{name: "unicode", params: `{"limit": 3}`, sample: says("café"), score: 0, reason: "4 characters"},
		{name: "limit as 10.0", params: `{"limit": 10.0}`, sample: says("Hello"), score: 1},
		{name: "null output", params: `{"limit": 0}`, sample: answer(`null`), score: 1},
	})
}

func TestMaxWords_Score(t *testing.T) {
	runChecks(t, "max_words", []checkCase{
		{name: "within", params: `{"limit": 5}`, sample: says("Return within 30 days."), score: 1, reason: "output has 4 words"},
		{name: "over", params: `{"limit": 3}`, sample: says("Return within 30 days."), score: 0, reason: "expected at most 3"},
		{name: "unicode spaces", params: `{"limit": 2}`, sample: says("un\u00a0deux\u3000trois"), score: 0, reason: "3 words"},
		{name: "no spaces is one word", params: `{"limit": 1}`, sample: says("私は東京に住んでいます"), score: 1},
		{name: "empty output", params: `{"limit": 0}`, sample: Sample{}, score: 1, reason: "0 words"},
	})
}

func TestMaxLatencyMS_Score(t *testing.T) {
	runChecks(t, "max_latency_ms", []checkCase{
		{name: "fast", params: `{"limit": 500}`, sample: Sample{DurationMS: 120.5}, score: 1, reason: "took 120.5 ms, within the limit of 500 ms"},
		{name: "at the limit", params: `{"limit": 500}`, sample: Sample{DurationMS: 500}, score: 1},
		{name: "slow", params: `{"limit": 500}`, sample: Sample{DurationMS: 501}, score: 0, reason: "over the limit"},
		{name: "zero", params: `{"limit": 0}`, sample: Sample{}, score: 1},
		{name: "negative duration", params: `{"limit": 500}`, sample: Sample{DurationMS: -1}, errKind: "invalid_latency"},
		{name: "NaN duration", params: `{"limit": 500}`, sample: Sample{DurationMS: math.NaN()}, errKind: "invalid_latency"},
	})
}

func TestMaxCost_Score(t *testing.T) {
	cost := func(f float64) *float64 { return &f }
	runChecks(t, "max_cost", []checkCase{
		{name: "cheap", params: `{"limit": 0.01}`, sample: Sample{Cost: cost(0.0002)}, score: 1, reason: "cost $0.0002, within the limit of $0.01"},
		{name: "free", params: `{"limit": 0}`, sample: Sample{Cost: cost(0)}, score: 1},
		{name: "expensive", params: `{"limit": 0.01}`, sample: Sample{Cost: cost(0.02)}, score: 0, reason: "over the limit"},
		{name: "unknown cost", params: `{"limit": 0.01}`, sample: Sample{}, errKind: "unknown_cost"},
		{name: "negative cost", params: `{"limit": 0.01}`, sample: Sample{Cost: cost(-1)}, errKind: "invalid_cost"},
		{name: "infinite cost", params: `{"limit": 0.01}`, sample: Sample{Cost: cost(math.Inf(1))}, errKind: "invalid_cost"},
	})
}

func TestIsURL_Score(t *testing.T) {
	runChecks(t, "is_url", []checkCase{
		{name: "https", sample: says("https://example.com/returns?x=1"), score: 1, reason: `output "https://example.com/returns?x=1" is a URL`},
		{name: "trimmed", sample: says(" http://example.com\n"), score: 1},
		{name: "unicode host", sample: says("https://例え.jp/パス"), score: 1},
		{name: "no scheme", sample: says("example.com"), score: 0, reason: "no scheme"},
		{name: "scheme not allowed", sample: says("ftp://example.com/file"), score: 0, reason: `scheme "ftp" is not one of "http", "https"`},
		{name: "schemes param", params: `{"schemes": ["FTP"]}`, sample: says("ftp://example.com/file"), score: 1},
		{name: "mailto opaque", params: `{"schemes": ["mailto"]}`, sample: says("mailto:team@example.com"), score: 1},
		{name: "no host", sample: says("https:///path"), score: 0, reason: "no host"},
		{name: "prose around it", sample: says("See https://example.com"), score: 0, reason: "white space"},
		{name: "empty output", sample: Sample{}, score: 0, reason: "empty output is not a URL"},
		{name: "null output", sample: answer(`null`), score: 0},
	})
}

func TestIsEmail_Score(t *testing.T) {
	runChecks(t, "is_email", []checkCase{
		{name: "plain", sample: says("team@example.com"), score: 1, reason: `output "team@example.com" is an e-mail address`},
		{name: "unicode", sample: says("josé@exemple.fr"), score: 1},
		{name: "display name", sample: says("Team <team@example.com>"), score: 0, reason: "bare address"},
		{name: "angle brackets", sample: says("<team@example.com>"), score: 0},
		{name: "no dot in domain", sample: says("team@localhost"), score: 0, reason: "dot"},
		{name: "no at", sample: says("team.example.com"), score: 0},
		{name: "prose", sample: says("Write to team@example.com"), score: 0},
		{name: "empty output", sample: Sample{}, score: 0, reason: "empty output"},
		{name: "long junk clipped", sample: says(strings.Repeat("@", 200)), score: 0, reason: "(200 chars)"},
	})
}
