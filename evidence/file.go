// Package evidence reads and writes evidence files: a run's rows exactly as
// a save inserts them into the three history tables, in a portable,
// versioned JSON document. evalrun writes one when a save finally fails or
// when asked to (--save-to, sharded runs), and db:import inserts it later,
// so no finished run is lost to a database outage.
//
// Format (version 1), one JSON object:
//
//	format          "agentevals-evidence"
//	version         1
//	writer          "agentevals-go"
//	reason          why the file was written (informational)
//	definition      {suite_digest, calculated_metrics (sorted), case_ids
//	                 (every question id of the definition, in suite order)}
//	shard           {index, count} for one slice of a sharded run; absent
//	                for a whole run
//	run             the runs row: every column but sequence, created_at and
//	                updated_at (the database fills those on import)
//	case_results    the case rows in position order, without id,
//	                created_at and updated_at
//	metric_results  the metric rows in case order, each with case_position
//	                (its case's position) in place of case_result_id, and
//	                without id, created_at and updated_at
//
// Columns are named as in the tables. In a JSON column an absent key is
// SQL NULL and null is JSON null; in any other column null is SQL NULL.
// Timestamps are RFC 3339 in UTC with microseconds.
package evidence

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/models"
)

// Format and Version identify the file format.
const (
	Format  = "agentevals-evidence"
	Version = 1
)

// File is an evidence file in memory.
type File struct {
	// Run is the run with its cases and metrics (ids and Rails timestamps
	// unset until it is inserted).
	Run *models.Run
	// Definition is what the gate and a merge need beyond the rows.
	Definition Definition
	// Shard is set for one slice of a sharded run.
	Shard *Shard
	// Reason says why the file was written.
	Reason string
	// metricRows is each metric's index in the file's metric_results, for
	// error paths (set by Parse; empty for a File built in memory).
	metricRows map[*models.MetricResult]int
	// asWritten is Run as the file held it, before repair, redaction and
	// the answer cap (set by Parse).
	asWritten *models.Run
}

// Definition identifies the suite definition a run executed.
type Definition struct {
	SuiteDigest       string   `json:"suite_digest"`
	CalculatedMetrics []string `json:"calculated_metrics"`
	// CaseIDs are every question id of the definition in suite order; a
	// shard's rows hold only some of them.
	CaseIDs []string `json:"case_ids"`
}

// Shard says which slice of a definition a run holds: the questions whose
// 0-based position p satisfies p mod Count == Index-1.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Holds reports whether the shard runs the question at position p.
func (s Shard) Holds(p int) bool { return p%s.Count == s.Index-1 }

// document is the file's JSON layout.
type document struct {
	Format        string     `json:"format"`
	Version       int        `json:"version"`
	Writer        string     `json:"writer,omitempty"`
	Reason        string     `json:"reason,omitempty"`
	Definition    Definition `json:"definition"`
	Shard         *Shard     `json:"shard,omitempty"`
	Run           Row        `json:"run"`
	CaseResults   []Row      `json:"case_results"`
	MetricResults []Row      `json:"metric_results"`
}

// writer is the file's writer value.
const writer = "agentevals-go"

// encodeRun turns a run into the rows of the file.
func encodeRun(run *models.Run) (*document, error) {
	d := &document{Format: Format, Version: Version, Writer: writer, CaseResults: []Row{}, MetricResults: []Row{}}
	cols := fileColumns()
	var err error
	if d.Run, err = encodeRow(run, cols.run); err != nil {
		return nil, fmt.Errorf("encode run: %w", err)
	}
	for _, c := range run.Cases {
		row, err := encodeRow(c, cols.cases)
		if err != nil {
			return nil, fmt.Errorf("encode case %q: %w", c.CaseID, err)
		}
		d.CaseResults = append(d.CaseResults, row)
		for _, m := range c.Metrics {
			mrow, err := encodeRow(m, cols.metrics)
			if err != nil {
				return nil, fmt.Errorf("encode metric %q of case %q: %w", m.Name, c.CaseID, err)
			}
			mrow["case_position"] = json.RawMessage(fmt.Sprint(c.Position))
			d.MetricResults = append(d.MetricResults, mrow)
		}
	}
	return d, nil
}

// Marshal encodes the file.
func (f *File) Marshal() ([]byte, error) {
	var b bytes.Buffer
	if err := f.encode(&b); err != nil {
		return nil, fmt.Errorf("write evidence: %w", err)
	}
	return b.Bytes(), nil
}

// encode writes the file to w one row at a time, so a large run is never
// held twice (as rows and as text) while its file is written.
func (f *File) encode(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	run, err := encodeRow(f.Run, fileColumns().run)
	if err != nil {
		return fmt.Errorf("encode run: %w", err)
	}
	head := &document{Format: Format, Version: Version, Writer: writer, Reason: f.Reason, Definition: f.Definition, Shard: f.Shard, Run: run}
	b, err := indented(head, "")
	if err != nil {
		return err
	}
	// the header without its closing brace and its two empty row lists
	b = bytes.TrimSuffix(b, []byte("}"))
	b = bytes.TrimRight(b, "\n")
	if cut := bytes.LastIndex(b, []byte(",\n \"case_results\"")); cut >= 0 {
		b = b[:cut]
	}
	bw.Write(b)
	if err := f.encodeRows(bw); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// indented is v as JSON indented by one space under prefix, HTML
// characters as they are.
func indented(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// encodeRows writes the case_results and metric_results members.
func (f *File) encodeRows(bw *bufio.Writer) error {
	cols := fileColumns()
	list := func(name string, rows func(emit func([]byte)) error) error {
		bw.WriteString(",\n \"" + name + "\": [")
		n := 0
		err := rows(func(b []byte) {
			if n > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n  ")
			bw.Write(b)
			n++
		})
		if n > 0 {
			bw.WriteString("\n ")
		}
		bw.WriteString("]")
		return err
	}
	cases := newRowWriter(cols.cases, false)
	err := list("case_results", func(emit func([]byte)) error {
		for _, c := range f.Run.Cases {
			b, err := cases.row(c, 0, "  ")
			if err != nil {
				return fmt.Errorf("encode case %q: %w", c.CaseID, err)
			}
			emit(b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	metrics := newRowWriter(cols.metrics, true)
	return list("metric_results", func(emit func([]byte)) error {
		for _, c := range f.Run.Cases {
			for _, m := range c.Metrics {
				b, err := metrics.row(m, c.Position, "  ")
				if err != nil {
					return fmt.Errorf("encode metric %q of case %q: %w", m.Name, c.CaseID, err)
				}
				emit(b)
			}
		}
		return nil
	})
}

// Write writes the file atomically (atomicfile.WriteWith, mode 0o644),
// streaming it row by row, after creating its directory if needed, so a
// reader never sees half a file and a crash leaves the old one.
func (f *File) Write(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write evidence %s: %w", path, err)
	}
	if err := atomicfile.WriteWith(path, 0o644, f.encode); err != nil {
		return fmt.Errorf("write evidence %s: %w", path, err)
	}
	return nil
}
