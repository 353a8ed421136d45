package faults

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
)

// evidenceDoc is a decoded evidence file, to be changed and written back.
type evidenceDoc map[string]any

// baseEvidence runs a two-question suite with --save-to and returns the
// directory and the decoded evidence file.
func baseEvidence(t *testing.T, answer string) (string, evidenceDoc) {
	t.Helper()
	dir := writeFiles(t, map[string]string{
		"agent.sh":   "cat >/dev/null; printf '%s' '" + answer + "'",
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 2),
	})
	if r := evalrun(t, dir, "run", "suite.json", "--save-to", "run.json"); r.code != 0 {
		t.Fatalf("run --save-to: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	return dir, readEvidence(t, filepath.Join(dir, "run.json"))
}

// readEvidence decodes the evidence file at path.
func readEvidence(t *testing.T, path string) evidenceDoc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d evidenceDoc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func (d evidenceDoc) run() map[string]any { return d["run"].(map[string]any) }
func (d evidenceDoc) caseRow(i int) map[string]any {
	return d["case_results"].([]any)[i].(map[string]any)
}
func (d evidenceDoc) metricRow(i int) map[string]any {
	return d["metric_results"].([]any)[i].(map[string]any)
}

// write writes d (raw replacements applied to its JSON text) as name in dir.
func (d evidenceDoc) write(t *testing.T, dir, name string, replace ...string) string {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(s, replace[i]) {
			t.Fatalf("%s: %q not in the file", name, replace[i])
		}
		s = strings.Replace(s, replace[i], replace[i+1], 1)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// clone deep-copies d.
func (d evidenceDoc) clone(t *testing.T) evidenceDoc {
	b, _ := json.Marshal(d)
	var c evidenceDoc
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// renew gives the run (and its case rows) a new id, so that it is a run
// of its own, and returns the id.
func (d evidenceDoc) renew() string {
	id := uuid.NewString()
	d.run()["id"] = id
	for _, c := range d["case_results"].([]any) {
		c.(map[string]any)["run_id"] = id
	}
	return id
}

// Inputs, size and depth: /dev/zero, a FIFO fed forever and nesting past
// the suite's 128 levels are refused with the limit named (exit 2), for
// evidence files, experiment files, --metadata and variant metadata; they
// used to run out of memory or be accepted.
func TestInputs_StreamsAndNestingAreBounded(t *testing.T) {
	dir, d := baseEvidence(t, "ok")
	db := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() { // a writer that never stops, until the reader goes away
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		chunk := []byte(strings.Repeat(`{"a":[1,2,3]}`, 4096))
		for {
			if _, err := f.Write(chunk); err != nil {
				return
			}
		}
	}()
	deep := strings.Repeat(`{"a":`, 200) + `1` + strings.Repeat(`}`, 200)
	d.run()["metadata"] = json.RawMessage(deep)
	deepFile := d.write(t, dir, "deep.json")
	writeFile(t, filepath.Join(dir, "exp.json"), `{"suite": "suite.json", "variants": [{"name": "v", "metadata": `+deep+`}]}`)
	for _, tc := range []struct {
		name  string
		args  []string
		limit string
	}{
		{"db:import /dev/zero", []string{"--database-url", db, "db:import", "/dev/zero"}, "limit: size"},
		{"db:import FIFO", []string{"--database-url", db, "db:import", fifo}, "limit: size"},
		{"db:import deep", []string{"--database-url", db, "db:import", deepFile}, "limit: depth 131"},
		{"experiment /dev/zero", []string{"--database-url", db, "experiment", "/dev/zero"}, "limit: size"},
		{"experiment deep variant metadata", []string{"--database-url", db, "experiment", "exp.json"}, "limit: depth 128"},
		{"run --metadata deep", []string{"--database-url", db, "run", "suite.json", "--metadata", deep}, "limit: depth 128"},
		{"run --metadata with NUL", []string{"--database-url", db, "run", "suite.json", "--metadata", `{"a":"\u0000"}`}, "limit: encoding UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalrun(t, dir, tc.args...)
			t.Logf("%s: exit %d in %s, peak RSS %d MB", tc.name, r.code, r.elapsed.Round(time.Millisecond), r.peakRSSKB/1024)
			if r.code != 2 || !strings.Contains(r.stderr, tc.limit) || strings.Contains(r.stderr, "panic") {
				t.Errorf("exit %d, want 2 naming %q:\n%s", r.code, tc.limit, r.stderr)
			}
			if r.peakRSSKB > 600*1024 { // the file limit is 256 MB (288 MB measured); out of memory (23 GB) was the old end
				t.Errorf("peak RSS %d MB", r.peakRSSKB/1024)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Evidence files get a live run's repair and redaction: NUL, invalid UTF-8
// and a lone surrogate import on PostgreSQL (it failed with 22021, 22P05,
// exit 1), a secret in the answer is never stored, an answer over the cap
// is cut, and the case says what was changed.
func TestInputs_EvidenceIsRepairedRedactedAndCapped(t *testing.T) {
	db := postgres(t)
	dir, d := baseEvidence(t, "ok")
	secret := "sk-inputsecret0001abcdefgh"
	d.caseRow(0)["output"] = "ok NULHERE and " + secret
	d.caseRow(0)["name"] = "question NULHERE"
	d.caseRow(1)["output"] = "ok " + strings.Repeat("é", 700000) // 1.4 MB: over the 1 MiB cap
	d.caseRow(1)["response_metadata"] = map[string]any{"k": "SURROGATE"}
	path := d.write(t, dir, "dirty.json", "NULHERE", `\u0000`, "NULHERE", `\u0000`, "SURROGATE", `\ud800 and \xff`)
	raw, _ := os.ReadFile(path)
	writeFile(t, path, strings.Replace(string(raw), `\xff`, "\xff", 1)) // a raw invalid byte
	r := evalrun(t, dir, "--database-url", db, "db:import", path)
	if r.code != 0 {
		t.Fatalf("db:import of a file with NUL, invalid UTF-8, a lone surrogate, a secret and a long answer: exit %d\n%s", r.code, r.stderr)
	}
	tables := dumpTables(t, db)
	assertNoSecrets(t, map[string]string{"tables": tables}, secret)
	for _, want := range []string{`"sanitized"`, `"output_truncated"`, `"limit_bytes": 1048576`} {
		if !strings.Contains(tables, want) && !strings.Contains(tables, strings.ReplaceAll(want, " ", "")) {
			t.Errorf("stored rows lack %s", want)
		}
	}
	for _, line := range strings.Split(tables, "\n") {
		var row struct {
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal([]byte(line), &row) == nil && len(row.Output) > 1<<20+16 {
			t.Errorf("a stored output is %d bytes, over the 1 MiB cap", len(row.Output))
		}
	}
	again := evalrun(t, dir, "--database-url", db, "db:import", path)
	if again.code != 0 || !strings.Contains(again.stdout, "already") {
		t.Errorf("re-import: exit %d, want 0 and 'already': %s%s", again.code, again.stdout, again.stderr)
	}
}

// Evidence files obey the rules a run's rows obey: a failed verdict at or
// above its threshold, a question id twice, a negative duration, a run
// dated 9999 or 0001 are refused (exit 2, naming the path); a file with
// +02:00 offsets and nanoseconds imports and re-imports as the same content.
func TestInputs_EvidenceConsistency(t *testing.T) {
	dir, d := baseEvidence(t, "ok")
	db := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	refuse := []struct {
		name, want string
		change     func(evidenceDoc)
	}{
		{"failed at threshold", "at or above its threshold", func(d evidenceDoc) {
			d.metricRow(0)["passed"] = false
			d.caseRow(0)["status"] = "failed"
			s := d.run()["summary"].(map[string]any)
			s["passed"], s["failed"] = 1.0, 1.0
		}},
		{"duplicate ids", "question ids are unique", func(d evidenceDoc) {
			d["definition"].(map[string]any)["case_ids"] = []any{"q0", "q0"}
			d.caseRow(1)["case_id"] = "q0"
		}},
		{"negative duration", "duration_ms", func(d evidenceDoc) { d.caseRow(1)["duration_ms"] = -5.0 }},
		{"negative run duration", "duration_ms", func(d evidenceDoc) { d.run()["summary"].(map[string]any)["duration_ms"] = -5.0 }},
		{"year 9999", "outside the accepted window", func(d evidenceDoc) {
			d.run()["started_at"], d.run()["finished_at"] = "9999-01-01T00:00:00Z", "9999-01-01T00:00:01Z"
		}},
		{"year 0001", "outside the accepted window", func(d evidenceDoc) { d.run()["started_at"] = "0001-01-01T00:00:00Z" }},
		{"concurrency 1e300", "want a whole number", func(d evidenceDoc) {
			d.run()["summary"].(map[string]any)["concurrency"] = json.RawMessage("1e300")
		}},
	}
	for i, tc := range refuse {
		t.Run(tc.name, func(t *testing.T) {
			c := d.clone(t)
			c.renew()
			tc.change(c)
			path := c.write(t, dir, "bad"+string(rune('a'+i))+".json")
			r := evalrun(t, dir, "--database-url", db, "db:import", path)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, path) {
				t.Errorf("exit %d, want 2 naming %s and %q:\n%s", r.code, path, tc.want, r.stderr)
			}
		})
	}
	t.Run("offsets and nanoseconds", func(t *testing.T) {
		c := d.clone(t)
		c.renew()
		start, err := time.Parse(time.RFC3339Nano, c.run()["started_at"].(string))
		if err != nil {
			t.Fatal(err)
		}
		zone := time.FixedZone("", 2*3600)
		c.run()["started_at"] = start.In(zone).Add(123 * time.Nanosecond).Format(time.RFC3339Nano)
		c.run()["finished_at"] = start.In(zone).Add(time.Second + 456*time.Nanosecond).Format(time.RFC3339Nano)
		path := c.write(t, dir, "zoned.json")
		for i, want := range []string{"Imported run", "already"} {
			r := evalrun(t, dir, "--database-url", db, "db:import", path)
			if r.code != 0 || !strings.Contains(r.stdout, want) {
				t.Errorf("import %d: exit %d, want 0 and %q: %s%s", i+1, r.code, want, r.stdout, r.stderr)
			}
		}
	})
}
