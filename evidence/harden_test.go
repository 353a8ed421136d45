package evidence

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// parseEdited parses the sample file after edit, with now as the clock.
func parseEdited(t *testing.T, edit func(d map[string]any), o Options) (*File, error) {
	t.Helper()
	run, def := sampleRun(t, 6)
	var d map[string]any
	if err := json.Unmarshal(encode(t, &File{Run: run, Definition: def}), &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return ParseWith("run.json", b, o)
}

// TestParse_RefusesWhatNoRunWrites: the consistency rules and limits an
// import adds, each naming the path and what was expected.
func TestParse_RefusesWhatNoRunWrites(t *testing.T) {
	now := Options{Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}
	runOf := func(d map[string]any) map[string]any { return d["run"].(map[string]any) }
	summary := func(d map[string]any) map[string]any {
		s := map[string]any{}
		runOf(d)["summary"] = s
		return s
	}
	for _, tc := range []struct {
		name string
		edit func(d map[string]any)
		want string
	}{
		{"failed at its threshold", func(d map[string]any) {
			row(d, "metric_results", 1)["passed"] = false
			row(d, "case_results", 0)["status"] = "failed"
		},
			`$.metric_results[1] (case "q0", metric "judge"): "judge" failed with score 0.5 at or above its threshold 0.5`},
		{"duplicate id", func(d map[string]any) {
			d["definition"].(map[string]any)["case_ids"].([]any)[1] = "q0"
			row(d, "case_results", 1)["case_id"] = "q0"
		}, `$.definition.case_ids[1]: "q0" is also at position 0`},
		{"year 9999", func(d map[string]any) {
			runOf(d)["started_at"], runOf(d)["finished_at"] = "9999-12-31T00:00:00Z", "9999-12-31T00:00:01Z"
		},
			"$.run.started_at: 9999-12-31T00:00:00Z is outside the accepted window 2000-01-01T00:00:00Z to 2026-12-03T00:00:00Z (now + 24h)"},
		{"year 0001", func(d map[string]any) { runOf(d)["started_at"] = "0001-01-01T00:00:00Z" }, "$.run.started_at: 0001-01-01T00:00:00Z is outside"},
		{"finished tomorrow and a half", func(d map[string]any) { runOf(d)["finished_at"] = "2026-12-03T12:00:00Z" }, "$.run.finished_at: 2026-12-03T12:00:00Z is outside"},
		{"concurrency 1e300", func(d map[string]any) { summary(d)["concurrency"] = json.RawMessage("1e300") }, "$.run.summary.concurrency: want a whole number from 0 to 100000, got 1e300"},
		{"negative concurrency", func(d map[string]any) { summary(d)["concurrency"] = -1 }, "$.run.summary.concurrency: want a whole number"},
		{"repeats 0", func(d map[string]any) { summary(d)["repeats"] = 0 }, "$.run.summary.repeats: want a whole number from 1"},
		{"negative run duration", func(d map[string]any) { summary(d)["duration_ms"] = -3 }, "$.run.summary.duration_ms: want a number of milliseconds >= 0, got -3"},
		{"2^62 shards", func(d map[string]any) {
			d["shard"] = map[string]any{"index": 1, "count": json.RawMessage("4611686018427387904")}
		}, "want 1 <= index <= count <= 10000"},
		{"too deep", func(d map[string]any) {
			runOf(d)["metadata"] = json.RawMessage(strings.Repeat(`{"a":`, 130) + "1" + strings.Repeat("}", 130))
		}, "nested more than 131 levels deep (limit: depth 131)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseEdited(t, tc.edit, now)
			var inv *InvalidError
			if !errors.As(err, &inv) || !strings.HasPrefix(err.Error(), "run.json: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an *InvalidError containing %q", err, tc.want)
			}
		})
	}
}

// TestParse_TreatsTheFileAsALiveRun: repair, redaction, the answer cap and
// the times of a file come out as a live run stores them.
func TestParse_TreatsTheFileAsALiveRun(t *testing.T) {
	now := Options{Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), MaxAnswerBytes: 32}
	f, err := parseEdited(t, func(d map[string]any) {
		row(d, "case_results", 0)["output"] = "y\x00 sk-abcdefghijklmnop1234" // 26 bytes: under the cap
		row(d, "case_results", 0)["name"] = "q\x00"
		row(d, "case_results", 1)["output"] = "yes, " + strings.Repeat("é", 16)        // byte 32 is inside an é: kept whole
		row(d, "case_results", 2)["output"] = "yes, aaaaaaa" + strings.Repeat("é", 12) // byte 32 starts an é: cut there
		d["run"].(map[string]any)["started_at"] = "2026-12-01T11:00:00.000000789+02:00"
	}, now)
	if err != nil {
		t.Fatal(err)
	}
	c0, c1, c2 := f.Run.Cases[0], f.Run.Cases[1], f.Run.Cases[2]
	for _, tc := range []struct{ what, got, want string }{
		{"repaired and redacted answer", string(c0.Output), `"y� [REDACTED]"`},
		{"repaired name", c0.Name, "q�"},
		{"cut after the character the cap falls in", string(c1.Output), `"yes, ` + strings.Repeat("é", 14) + `"`},
		{"cut at the cap", string(c2.Output), `"yes, aaaaaaa` + strings.Repeat("é", 10) + `"`},
		{"started_at in UTC microseconds", f.Run.StartedAt.Format(time.RFC3339Nano), "2026-12-01T09:00:00Z"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	meta, err := models.DecodeCaseMetadata(c0.ResponseMetadata)
	if err != nil || meta.Sanitized == nil || strings.Join(meta.Sanitized.Repaired, ",") != "name,output" || strings.Join(meta.Sanitized.Redacted, ",") != "output" {
		t.Errorf("case 0's response_metadata.sanitized = %+v (%v), want name and output repaired, output redacted", meta.Sanitized, err)
	}
	cut, err := models.DecodeCaseMetadata(c1.ResponseMetadata)
	if err != nil || cut.OutputTruncated == nil || *cut.OutputTruncated.KeptBytes != 33 || *cut.OutputTruncated.ReplyBytes != 37 || *cut.OutputTruncated.LimitBytes != 32 {
		t.Errorf("case 1's output_truncated = %+v (%v), want kept 33 of 37 at limit 32", cut.OutputTruncated, err)
	}
	if f.asWritten == nil || string(f.asWritten.Cases[0].Output) == string(c0.Output) {
		t.Error("the file as written is not kept beside the repaired rows (a run killed after its commit stored those)")
	}
}
