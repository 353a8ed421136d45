package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/replay"
)

// Recording replay fixtures (evalrun run --record).
//
// A recording run sends every request of every case to its real host
// (ExecOptions.Record; declared api_interactions are not used) and keeps
// what it saw. Recordings.Write then writes a NEW suite file beside the
// original (never over it, nor over any existing file) in which every
// inline question declares, as api_interactions, exactly the requests it
// made, in the order they arrived, so the next run of that file replays
// them strictly; a question that made no request declares [] (any request
// then fails it). Reply bodies go to files under fixtures/recorded/ next to
// the suite ("<question id>-<n>.json"), request bodies inline as typed
// JSON. Headers are not recorded (so no Authorization, cookie or API-key
// header reaches a fixture) except the reply's Content-Type; credential-
// like fields of reply bodies are replaced by "[REDACTED]". A request that
// cannot become a strict fixture is refused with the reason, and then
// nothing is written: a query parameter or JSON field holding a credential
// (replay compares them exactly, so the fixture would keep the secret), a
// body or reply that is not JSON, an empty reply, a failed request, or a
// request made by a golden-set question (JSONL lines cannot declare
// api_interactions).

// Recordings collects what a recording run's cases requested.
type Recordings struct {
	mu     sync.Mutex
	byCase map[*Case][]replay.Recorded
}

// NewRecordings returns an empty collection for ExecOptions.Record.
func NewRecordings() *Recordings { return &Recordings{byCase: map[*Case][]replay.Recorded{}} }

func (r *Recordings) Add(c *Case, recs []replay.Recorded) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byCase[c] = append(r.byCase[c], recs...)
}

// RecordResult says what Write wrote.
type RecordResult struct {
	// Suite is the new suite file; Files are the reply bodies.
	Suite string
	Files []string
	// Requests and Questions count the recorded requests and the
	// questions that made them.
	Requests, Questions int
}

// Write writes the recorded suite at out (in the directory of s's file)
// and its reply bodies, as described above. Problems come back as a
// *ValidationError and nothing is written.
func (r *Recordings) Write(s *Suite, out string) (*RecordResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var list []Problem
	p := Problems{File: s.Path, List: &list}
	absOut, err := filepath.Abs(out)
	if err != nil || filepath.Dir(absOut) != s.Dir {
		p.add("--record-to", "want a file in the suite's directory %s (its relative paths resolve there), got %s", s.Dir, out)
		return nil, &ValidationError{Problems: list}
	}
	res := &RecordResult{Suite: out}
	decls := map[int]json.RawMessage{} // question index -> api_interactions
	bodies := map[string][]byte{}      // path relative to the suite dir -> bytes
	usedNames := map[string]bool{}
	for i, c := range s.Cases {
		recs := r.byCase[c]
		qi, inline := questionIndex(c, s.Path)
		if !inline {
			if len(recs) > 0 {
				Problems{File: c.file, List: p.List}.add(c.path, "made %d requests, but a golden-set line cannot declare api_interactions: make it an inline question to record it", len(recs))
			}
			continue
		}
		if len(recs) > 0 {
			res.Questions++
			res.Requests += len(recs)
		}
		stem := uniqueStem(slug(c.ID, i), usedNames)
		var items []any
		for n, rec := range recs {
			where := fmt.Sprintf("%s: request %d (%s %s)", c.path, n+1, rec.Method, rec.ShownURL())
			file := filepath.ToSlash(filepath.Join("fixtures", "recorded", fmt.Sprintf("%s-%d.json", stem, n+1)))
			item, body, why := fixture(rec, file)
			if why != "" {
				p.add(where, "cannot record: %s", why)
				continue
			}
			bodies[file] = body
			items = append(items, item)
		}
		if items == nil {
			items = []any{}
		}
		b, err := json.Marshal(items)
		if err != nil {
			p.add(c.path, "cannot record: %v", err)
			continue
		}
		decls[qi] = b
	}
	if len(list) > 0 {
		return nil, &ValidationError{Problems: list}
	}
	doc, err := recordedSuite(s, decls)
	if err != nil {
		return nil, err
	}
	paths := []string{absOut}
	var rels []string
	for rel := range bodies {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		paths = append(paths, filepath.Join(s.Dir, filepath.FromSlash(rel)))
	}
	for _, path := range paths {
		if _, err := os.Lstat(path); err == nil {
			p.add("--record-to", "%s exists: nothing was written (move it away, or name another file with --record-to)", path)
		}
	}
	if len(list) > 0 {
		return nil, &ValidationError{Problems: list}
	}
	for i, rel := range rels {
		if err := writeNew(paths[i+1], bodies[rel]); err != nil {
			return res, err
		}
		res.Files = append(res.Files, paths[i+1])
	}
	if err := writeNew(absOut, doc); err != nil {
		return res, err
	}
	return res, nil
}

// questionIndex is the index of an inline question of the suite file.
func questionIndex(c *Case, suitePath string) (int, bool) {
	if c.file != suitePath || !strings.HasPrefix(c.path, "$.questions[") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(c.path, "$.questions["), "]"))
	return n, err == nil
}

// fixture turns one recording into an interaction and its reply body, or
// says why it cannot.
func fixture(rec replay.Recorded, bodyFile string) (item map[string]any, body []byte, why string) {
	switch {
	case rec.Err != "":
		return nil, nil, rec.Err
	case len(rec.Body) > 0 && !json.Valid(rec.Body):
		return nil, nil, "the request body is not JSON (api_interactions compare typed JSON bodies)"
	case len(rec.SensitivePath()) > 0:
		return nil, nil, fmt.Sprintf("the URL path holds a credential (%s), which a strict fixture would have to store; send it in a header", strings.Join(rec.SensitivePath(), ", "))
	case len(rec.SensitiveQuery()) > 0:
		return nil, nil, fmt.Sprintf("query parameter %s holds a credential, which a strict fixture would have to store; send it in a header", strings.Join(rec.SensitiveQuery(), ", "))
	case rec.SensitiveBody():
		return nil, nil, "the request body holds a credential, which a strict fixture would have to store; send it in a header"
	case len(bytes.TrimSpace(rec.Reply)) == 0:
		return nil, nil, fmt.Sprintf("the reply (status %d) has no body, which api_interactions cannot declare", rec.Status)
	case !json.Valid(rec.Reply):
		return nil, nil, fmt.Sprintf("the reply (status %d, %s) is not JSON, which body files must hold", rec.Status, orNone(rec.ContentType))
	}
	req := map[string]any{"method": rec.Method, "url": rec.URL}
	if len(rec.Query) > 0 {
		q := map[string]any{}
		for k, vs := range rec.Query {
			if len(vs) == 1 {
				q[k] = vs[0]
			} else {
				q[k] = vs
			}
		}
		req["query"] = q
	}
	if len(rec.Body) > 0 {
		req["json"] = json.RawMessage(compact(rec.Body))
	}
	resp := map[string]any{"status": rec.Status, "body_file": bodyFile}
	if rec.ContentType != "" {
		resp["headers"] = map[string]string{"Content-Type": rec.ContentType}
	}
	return map[string]any{"expect_request": req, "respond_with": resp}, rec.RedactedReply(), ""
}

func orNone(s string) string {
	if s == "" {
		return "no Content-Type"
	}
	return s
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// slug is a file-name stem for a question id ("q<index>" when nothing is left).
func slug(id string, i int) string {
	s := strings.Trim(unsafeName.ReplaceAllString(id, "-"), "-.")
	if len(s) > 60 {
		s = s[:60]
	}
	if s == "" {
		return "q" + strconv.Itoa(i+1)
	}
	return s
}

// uniqueStem returns stem, or stem-2, stem-3 … when already used.
func uniqueStem(stem string, used map[string]bool) string {
	out := stem
	for n := 2; used[strings.ToLower(out)]; n++ {
		out = stem + "-" + strconv.Itoa(n)
	}
	used[strings.ToLower(out)] = true
	return out
}

// recordedSuite is the suite file's JSON with api_interactions set on the
// given questions, keys in file order, indented.
func recordedSuite(s *Suite, decls map[int]json.RawMessage) ([]byte, error) {
	data, err := bounds.ReadFile(s.Path, bounds.DefaultMaxBytes)
	if err != nil {
		return nil, fmt.Errorf("record: read suite: %w", err)
	}
	if ext := strings.ToLower(filepath.Ext(s.Path)); ext == ".yaml" || ext == ".yml" {
		var list []Problem
		var ok bool
		if data, ok = yamlToJSON(Problems{File: s.Path, List: &list}, data); !ok {
			return nil, &ValidationError{Problems: list}
		}
	}
	top, ok := members(data)
	if !ok {
		return nil, fmt.Errorf("record: %s is not a JSON object", s.Path)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range top {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, m.key)
		b.WriteByte(':')
		value := m.value
		if m.key == "questions" {
			if value, err = withInteractions(value, decls); err != nil {
				return nil, err
			}
		}
		b.Write(value)
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// withInteractions rewrites the questions array.
func withInteractions(raw json.RawMessage, decls map[int]json.RawMessage) (json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("record: questions: %w", err)
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, item := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		decl, ok := decls[i]
		ms, isObj := members(item)
		if !ok || !isObj {
			b.Write(item)
			continue
		}
		b.WriteByte('{')
		n := 0
		for _, m := range ms {
			if m.key == "api_interactions" {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			writeString(&b, m.key)
			b.WriteByte(':')
			b.Write(m.value)
			n++
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"api_interactions":`)
		b.Write(decl)
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// writeNew creates path (and its directory) with data; an existing file
// is an error, never overwritten.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if err := atomicfile.CreateNew(path, data, 0o644); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
