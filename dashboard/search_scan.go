package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/agentevals-go/agentevals/models"
)

// The search's work budget. Each field of a question (question, answer,
// expected answer, name, case id) is searched in its first searchFieldChars
// characters only, cut by the database, so a 1 MiB answer costs what a
// 16 KiB one does; runs are read newest first, searchRunBatch at a time,
// one row in memory at a time, and the scan stops when searchByteBudget
// bytes have been searched or the request's context ends.
const (
	searchFieldChars = 16 << 10
	searchByteBudget = 32 << 20
	searchRunBatch   = 25
)

// searchScan is what one search read: the hits and its work.
type searchScan struct {
	Hits []searchHit
	// Rows and Bytes count the rows read and the bytes searched.
	Rows, Bytes int
	// Exhausted: the byte budget ran out before every run was read.
	Exhausted bool
}

// searchCase is the part of a case row the search reads, cut.
type searchCase struct {
	ID                         int64
	RunID                      uuid.UUID
	Position                   int
	CaseID, Name, Status       string
	Question, Output, Expected string
}

// scanCases searches the cases of runs (newest first) for q and keeps up
// to max+1 hits.
func (s *Server) scanCases(ctx context.Context, runs []*models.Run, q string, max int, hit func(*models.Run, *searchCase, textMatch) searchHit) (*searchScan, error) {
	scan := &searchScan{}
	needle := foldText(q)
	byID := make(map[uuid.UUID]*models.Run, len(runs))
	for _, r := range runs {
		byID[r.ID] = r
	}
	for from := 0; from < len(runs) && len(scan.Hits) <= max; from += searchRunBatch {
		ids := make([]uuid.UUID, 0, searchRunBatch)
		for _, r := range runs[from:min(len(runs), from+searchRunBatch)] {
			ids = append(ids, r.ID)
		}
		if err := s.scanBatch(ctx, ids, func(sc *searchCase) bool {
			decode := s.db.Dialect != models.PostgreSQL
			for _, f := range []struct {
				name, raw string
				json      bool
			}{
				{"question", sc.Question, decode}, {"answer", sc.Output, decode}, {"expected answer", sc.Expected, decode},
				{"name", sc.Name, false}, {"case id", sc.CaseID, false},
			} {
				scan.Bytes += len(f.raw)
				text := f.raw
				if f.json {
					text = fieldText(f.raw)
				}
				if m, ok := findFolded(text, needle); ok {
					m.Field = f.name
					scan.Hits = append(scan.Hits, hit(byID[sc.RunID], sc, m))
					break
				}
			}
			scan.Rows++
			if scan.Bytes >= searchByteBudget {
				scan.Exhausted = true
			}
			return len(scan.Hits) <= max && !scan.Exhausted
		}); err != nil {
			return nil, err
		}
		if scan.Exhausted {
			break
		}
	}
	return scan, nil
}

// scanBatch reads the cut case rows of ids one at a time and hands each to
// use until it returns false; the context is checked at every row.
func (s *Server) scanBatch(ctx context.Context, ids []uuid.UUID, use func(*searchCase) bool) error {
	cut := func(col string) string {
		return fmt.Sprintf("SUBSTR(CAST(%s AS TEXT), 1, %d)", col, searchFieldChars)
	}
	cutJSON := cut
	if s.db.Dialect == models.PostgreSQL {
		// #>> '{}' is a string's text without quotes or escapes (the rest
		// as JSON text): far cheaper than printing a long jsonb string.
		cutJSON = func(col string) string { return fmt.Sprintf("SUBSTR(%s #>> '{}', 1, %d)", col, searchFieldChars) }
	}
	rows, err := s.db.NewSelect().TableExpr("ruby_llm_evaluations_case_results AS c").
		ColumnExpr("c.id, c.run_id, c.position, c.status").
		ColumnExpr(cut("c.case_id")).ColumnExpr(cut("c.name")).
		ColumnExpr("COALESCE("+cutJSON("c.question")+", '')").
		ColumnExpr("COALESCE("+cutJSON("c.output")+", '')").
		ColumnExpr("COALESCE("+cutJSON("c.expected_answer")+", '')").
		Where("c.run_id IN (?)", bun.In(ids)).OrderExpr("c.run_id, c.position").Rows(ctx)
	if err != nil {
		return unavailable(fmt.Errorf("search cases: %w", err))
	}
	defer rows.Close()
	var sc searchCase
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		var runID string
		if err := rows.Scan(&sc.ID, &runID, &sc.Position, &sc.Status, &sc.CaseID, &sc.Name, &sc.Question, &sc.Output, &sc.Expected); err != nil {
			return unavailable(fmt.Errorf("search cases: %w", err))
		}
		if sc.RunID, err = uuid.Parse(runID); err != nil {
			return unavailable(fmt.Errorf("search cases: run id %q: %w", runID, err))
		}
		if !use(&sc) {
			return nil
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return unavailable(fmt.Errorf("search cases: %w", err))
	}
	return nil
}

// fieldText is the searchable text of a cut column: a JSON string's text
// (decoded up to the cut), anything else as the database printed it.
func fieldText(raw string) string {
	if !strings.HasPrefix(raw, `"`) {
		return raw
	}
	var s string
	if json.Unmarshal([]byte(raw), &s) == nil {
		return s
	}
	// Cut inside the string: close it after the last complete character
	// (a cut escape is dropped, at most six bytes).
	for end := len(raw); end > 1 && end >= len(raw)-7; end-- {
		if json.Unmarshal([]byte(raw[:end]+`"`), &s) == nil {
			return s
		}
	}
	return raw
}

// textMatch is where the query matched: the field and the text around it.
type textMatch struct {
	Field, Before, Match, After string
}

// foldText lowers s rune by rune (simple case folding, so every rune stays
// one rune).
func foldText(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		out = append(out, unicode.ToLower(r))
	}
	return out
}

// findFolded finds needle (folded) in text ignoring case, in one pass over
// text: text is folded once into a rune slice, then searched with the
// Knuth–Morris–Pratt automaton, so the cost is linear in len(text) +
// len(needle) whatever the two hold, with no allocation per position.
func findFolded(text string, needle []rune) (textMatch, bool) {
	if len(needle) == 0 || utf8.RuneCountInString(text) < len(needle) {
		return textMatch{}, false
	}
	hay := foldText(text)
	i := kmpIndex(hay, needle)
	if i < 0 {
		return textMatch{}, false
	}
	rs := []rune(text)
	from, to := max(0, i-snippetRadius), min(len(rs), i+len(needle)+snippetRadius)
	m := textMatch{Before: string(rs[from:i]), Match: string(rs[i : i+len(needle)]), After: string(rs[i+len(needle) : to])}
	if from > 0 {
		m.Before = "…" + m.Before
	}
	if to < len(rs) {
		m.After += "…"
	}
	return m, true
}

// kmpIndex is the index of the first sub in s, or -1.
func kmpIndex(s, sub []rune) int {
	fail := make([]int, len(sub))
	for i, k := 1, 0; i < len(sub); i++ {
		for k > 0 && sub[i] != sub[k] {
			k = fail[k-1]
		}
		if sub[i] == sub[k] {
			k++
		}
		fail[i] = k
	}
	for i, k := 0, 0; i < len(s); i++ {
		for k > 0 && s[i] != sub[k] {
			k = fail[k-1]
		}
		if s[i] == sub[k] {
			k++
		}
		if k == len(sub) {
			return i - len(sub) + 1
		}
	}
	return -1
}
