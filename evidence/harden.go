package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// An evidence file is untrusted input like any other: it is read through
// bounds, its strings get the repair and redaction a live run's get, its
// answers the live run's answer cap, and its times a window around now.
// After that, importing a file gives the rows a run writing it would have
// saved, and importing it again finds them equal.

// Limits of an evidence file.
const (
	// MaxFileBytes is the largest evidence file read: a run of a few
	// hundred questions with answers at the default cap, with room.
	MaxFileBytes = 256 << 20
	// fileFrame is the nesting the file adds around a column's value
	// (document, case_results, row): a column may nest as deep as any
	// other input, bounds.DefaultMaxDepth.
	fileFrame = 3
	// DefaultMaxAnswerBytes is the answer cap of a live run when neither
	// the suite nor --max-answer-bytes says otherwise.
	DefaultMaxAnswerBytes = 1 << 20
	// futureSlack is how far after now a run may have started or finished
	// (clocks of CI machines disagree, by seconds rather than days); the
	// messages say "now + 24h".
	futureSlack = 24 * time.Hour
)

// earliest is the earliest start accepted (before any evalrun existed).
var earliest = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Options tune ReadWith and ParseWith.
type Options struct {
	// MaxAnswerBytes is the answer cap (0: DefaultMaxAnswerBytes): a
	// longer answer is cut as a live run cuts it.
	MaxAnswerBytes int
	// Now is the time the window of accepted run times is centred on
	// (zero: the current time).
	Now time.Time
}

func (o Options) answerCap() int {
	if o.MaxAnswerBytes > 0 {
		return o.MaxAnswerBytes
	}
	return DefaultMaxAnswerBytes
}

// fileLimits are the size and depth limits of an evidence file.
func fileLimits() bounds.Limits {
	return bounds.Limits{MaxDepth: bounds.DefaultMaxDepth + fileFrame, MaxBytes: MaxFileBytes}
}

// TimeWindow is the range a run's started_at and finished_at must fall in.
func (o Options) TimeWindow() (from, to time.Time) {
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	return earliest, models.UTC(now.Add(futureSlack))
}

// normalizeTimes keeps the times as the database will: UTC, microseconds.
// A file written with +02:00 offsets or nanoseconds then imports as the
// same content every time.
func normalizeTimes(r *models.Run) {
	r.StartedAt, r.FinishedAt = models.UTC(r.StartedAt), models.UTC(r.FinishedAt)
}

// checkTimes refuses run times outside the window (a run dated 9999 would
// be every later query's "latest run").
func (o Options) checkTimes(r *models.Run, bad func(p, format string, args ...any) error) error {
	from, to := o.TimeWindow()
	for _, t := range []struct {
		col string
		at  time.Time
	}{{"started_at", r.StartedAt}, {"finished_at", r.FinishedAt}} {
		if t.at.Before(from) || t.at.After(to) {
			return bad("$.run."+t.col, "%s is outside the accepted window %s to %s (now + %s): a run's times must come from a working clock",
				t.at.Format(time.RFC3339Nano), from.Format(time.RFC3339), to.Format(time.RFC3339), "24h")
		}
	}
	return nil
}

// scrub gives the file's strings the live run's treatment, by the same
// code: the run's suite and agent names and metadata, each case's name,
// question, expected answer, expected actions, metadata, answer, actions,
// response metadata, error details and metric reasons are repaired and
// redacted; ids, statuses, digests and the summary are repaired (NUL,
// invalid UTF-8, lone surrogates: what PostgreSQL refuses). Changed case
// columns are listed under response_metadata.sanitized, as a live run
// lists them. It reports whether it changed anything.
func scrub(r *models.Run) bool {
	var policy sanitize.Policy
	changed := r.ScrubNames(policy).Changed()
	for _, c := range r.Cases {
		if c.Scrub(policy).Changed() {
			changed = true
		}
	}
	return changed
}

// capAnswers cuts every answer longer than limit bytes as a live run does:
// at the first character boundary at or after the limit, recording the cut
// under response_metadata.output_truncated (the whole answer's length and
// SHA-256 as reply_bytes and reply_sha256). It reports whether it cut one.
func capAnswers(r *models.Run, limit int) bool {
	cut := false
	for _, c := range r.Cases {
		var answer string
		if c.Output == nil || json.Unmarshal(c.Output, &answer) != nil || len(answer) <= limit {
			continue
		}
		kept := limit
		for kept < len(answer) && !utf8.RuneStart(answer[kept]) {
			kept++
		}
		sum := sha256.Sum256([]byte(answer))
		out, err := json.Marshal(answer[:kept])
		if err != nil {
			continue
		}
		meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
		if err != nil {
			meta = models.CaseMetadata{Original: json.RawMessage(c.ResponseMetadata)}
		}
		keptN, limitN, total := int64(kept), int64(limit), int64(len(answer))
		meta.OutputTruncated = &models.OutputTruncation{KeptBytes: &keptN, LimitBytes: &limitN, ReplyBytes: &total,
			ReplySHA256: hex.EncodeToString(sum[:]),
			Note:        "the answer in the evidence file was longer than the limit: only its first kept_bytes were kept; reply_bytes and reply_sha256 describe the whole answer"}
		j, err := meta.Encode()
		if err != nil {
			continue
		}
		c.Output, c.ResponseMetadata = models.JSON(out), j
		cut = true
	}
	return cut
}

// uniqueIDs refuses a definition that names a question twice: rows,
// reports and comparisons key questions by id.
func uniqueIDs(def Definition, bad func(p, format string, args ...any) error) error {
	seen := make(map[string]int, len(def.CaseIDs))
	for i, id := range def.CaseIDs {
		if j, dup := seen[id]; dup {
			return bad(fmt.Sprintf("$.definition.case_ids[%d]", i), "%q is also at position %d: question ids are unique within a run", id, j)
		}
		seen[id] = i
	}
	return nil
}

// repeated reports whether the case was answered K > 1 times (a failed
// repeat fails the row whatever the mean).
func repeated(c *models.CaseResult) bool {
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	return err == nil && meta.Repeated()
}

// Bounds on the numbers of a file that size something: a shard count or
// a concurrency is allocated or summed, so an untrusted one must be small.
const (
	// MaxShards is the largest shard count of a sharded run.
	MaxShards = 10000
	// maxSummaryCount bounds the summary's concurrency and repeats.
	maxSummaryCount = 100000
)

// checkSummaryNumbers refuses summary numbers no run produces: a
// concurrency or repeat count that is not a whole number from 0 (1 for
// repeats) to maxSummaryCount, a negative duration.
func checkSummaryNumbers(j models.JSON, bad func(p, format string, args ...any) error) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(j, &obj); err != nil {
		return bad("$.run.summary", "want a JSON object: %v", err)
	}
	for _, k := range []struct {
		key string
		min int64
	}{{"concurrency", 0}, {"repeats", 1}} {
		raw, ok := obj[k.key]
		if !ok || string(raw) == "null" {
			continue
		}
		var n int64
		if err := json.Unmarshal(raw, &n); err != nil || n < k.min || n > maxSummaryCount {
			return bad("$.run.summary."+k.key, "want a whole number from %d to %d, got %s", k.min, maxSummaryCount, clip(raw))
		}
	}
	if raw, ok := obj["duration_ms"]; ok && string(raw) != "null" {
		var d float64
		if err := json.Unmarshal(raw, &d); err != nil || d < 0 {
			return bad("$.run.summary.duration_ms", "want a number of milliseconds >= 0, got %s", clip(raw))
		}
	}
	return nil
}

// clip shortens a raw value for a message.
func clip(raw json.RawMessage) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

// cloneRun copies the run's records (the values they point to are
// replaced, never changed in place, by scrub and capAnswers).
func cloneRun(r *models.Run) *models.Run {
	cp := *r
	cp.Cases = make([]*models.CaseResult, len(r.Cases))
	for i, c := range r.Cases {
		cc := *c
		cc.Metrics = make([]*models.MetricResult, len(c.Metrics))
		for j, m := range c.Metrics {
			mc := *m
			cc.Metrics[j] = &mc
		}
		cp.Cases[i] = &cc
	}
	return &cp
}
