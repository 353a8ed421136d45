package models

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// pgChunk is how many rows one unnest INSERT carries on PostgreSQL.
const pgChunk = 10_000

// insertChildrenPostgres writes the cases and metrics of a run with
// INSERT … SELECT FROM unnest(arrays): one statement per 10,000 rows whose
// values travel as binary array parameters instead of SQL text, close to
// COPY's speed while still returning the generated ids. Values are cast to
// the contract's types in SQL; PostgreSQL's assignment casts then fit them
// into compatible live columns (json, integer, double precision).
//
// The ids come back with (run_id, position) and (case_result_id, position),
// which validateRun has checked to be unique, so they are matched by key,
// not by the order of RETURNING.
func insertChildrenPostgres(ctx context.Context, tx bun.Tx, run *Run, now time.Time) error {
	for start := 0; start < len(run.Cases); start += pgChunk {
		if err := insertCasesPostgres(ctx, tx, run, run.Cases[start:min(start+pgChunk, len(run.Cases))], now); err != nil {
			return err
		}
	}
	metrics := linkMetrics(run)
	for start := 0; start < len(metrics); start += pgChunk {
		if err := insertMetricsPostgres(ctx, tx, metrics[start:min(start+pgChunk, len(metrics))], now); err != nil {
			return err
		}
	}
	return nil
}

// jsonText is a JSON column as a nullable text array element.
func jsonText(j JSON) *string {
	if j == nil {
		return nil
	}
	s := string(j)
	return &s
}

const insertCasesSQL = `INSERT INTO ruby_llm_evaluations_case_results
  (run_id, position, case_id, name, status, duration_ms, question, expected_answer, expected_actions,
   minimum_scores, metadata, output, actions, response_metadata, error_details,
   input_tokens, output_tokens, cost, created_at, updated_at)
SELECT $1::uuid, u.position, u.case_id, u.name, u.status, u.duration_ms,
  u.question::jsonb, u.expected_answer::jsonb, u.expected_actions::jsonb, u.minimum_scores::jsonb,
  u.metadata::jsonb, u.output::jsonb, u.actions::jsonb, u.response_metadata::jsonb, u.error_details::jsonb,
  u.input_tokens, u.output_tokens, u.cost::numeric, $2::timestamp, $2::timestamp
FROM unnest($3::integer[], $4::varchar[], $5::varchar[], $6::varchar[], $7::double precision[],
  $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
  $17::bigint[], $18::bigint[], $19::numeric[])
  AS u(position, case_id, name, status, duration_ms, question, expected_answer, expected_actions, minimum_scores,
       metadata, output, actions, response_metadata, error_details, input_tokens, output_tokens, cost)
RETURNING id, position`

func insertCasesPostgres(ctx context.Context, tx bun.Tx, run *Run, cases []*CaseResult, now time.Time) error {
	n := len(cases)
	var (
		position                        = make([]int32, n)
		caseID, name, status            = make([]string, n), make([]string, n), make([]string, n)
		duration                        = make([]float64, n)
		question, expAnswer, expActions = make([]*string, n), make([]*string, n), make([]*string, n)
		minScores, metadata, output     = make([]*string, n), make([]*string, n), make([]*string, n)
		actions, respMeta, errDetails   = make([]*string, n), make([]*string, n), make([]*string, n)
		inTokens, outTokens             = make([]*int64, n), make([]*int64, n)
		cost                            = make([]*string, n)
		byPosition                      = make(map[int]*CaseResult, n)
	)
	for i, c := range cases {
		position[i], caseID[i], name[i], status[i], duration[i] = int32(c.Position), c.CaseID, c.Name, c.Status, c.DurationMS
		question[i], expAnswer[i], expActions[i] = jsonText(c.Question), jsonText(c.ExpectedAnswer), jsonText(c.ExpectedActions)
		minScores[i], metadata[i], output[i] = jsonText(c.MinimumScores), jsonText(c.Metadata), jsonText(c.Output)
		actions[i], respMeta[i], errDetails[i] = jsonText(c.Actions), jsonText(c.ResponseMetadata), jsonText(c.ErrorDetails)
		inTokens[i], outTokens[i] = c.InputTokens, c.OutputTokens
		if c.Cost != nil {
			s := string(*c.Cost)
			cost[i] = &s // numeric from text: every digit kept
		}
		byPosition[c.Position] = c
	}
	// tx.Tx is the database/sql transaction: arguments go to pgx as binary
	// parameters, not through Bun's SQL-text formatting.
	rows, err := tx.Tx.QueryContext(ctx, insertCasesSQL, run.ID, now,
		position, caseID, name, status, duration, question, expAnswer, expActions, minScores,
		metadata, output, actions, respMeta, errDetails, inTokens, outTokens, cost)
	if err != nil {
		return fmt.Errorf("insert case results: %w", err)
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var id int64
		var pos int
		if err := rows.Scan(&id, &pos); err != nil {
			return fmt.Errorf("insert case results: %w", err)
		}
		c, ok := byPosition[pos]
		if !ok {
			return fmt.Errorf("insert case results: unexpected position %d returned", pos)
		}
		c.ID = id
		got++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("insert case results: %w", err)
	}
	if got != n {
		return fmt.Errorf("insert case results: %d ids returned for %d rows", got, n)
	}
	return nil
}

const insertMetricsSQL = `INSERT INTO ruby_llm_evaluations_metric_results
  (case_result_id, position, name, threshold, score, passed, reason, error_details, created_at, updated_at)
SELECT u.case_result_id, u.position, u.name, u.threshold, u.score, u.passed, u.reason, u.error_details::jsonb,
  $1::timestamp, $1::timestamp
FROM unnest($2::bigint[], $3::integer[], $4::varchar[], $5::double precision[], $6::double precision[],
  $7::boolean[], $8::text[], $9::text[])
  AS u(case_result_id, position, name, threshold, score, passed, reason, error_details)
RETURNING id, case_result_id, position`

type metricKey struct {
	caseResultID int64
	position     int
}

func insertMetricsPostgres(ctx context.Context, tx bun.Tx, metrics []*MetricResult, now time.Time) error {
	n := len(metrics)
	var (
		caseResultID = make([]int64, n)
		position     = make([]int32, n)
		name         = make([]string, n)
		threshold    = make([]float64, n)
		score        = make([]*float64, n)
		passed       = make([]bool, n)
		reason       = make([]*string, n)
		errDetails   = make([]*string, n)
		byKey        = make(map[metricKey]*MetricResult, n)
	)
	for i, m := range metrics {
		caseResultID[i], position[i], name[i], threshold[i] = m.CaseResultID, int32(m.Position), m.Name, m.Threshold
		score[i], passed[i], reason[i], errDetails[i] = m.Score, m.Passed, m.Reason, jsonText(m.ErrorDetails)
		byKey[metricKey{m.CaseResultID, m.Position}] = m
	}
	rows, err := tx.Tx.QueryContext(ctx, insertMetricsSQL, now,
		caseResultID, position, name, threshold, score, passed, reason, errDetails)
	if err != nil {
		return fmt.Errorf("insert metric results: %w", err)
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var id int64
		var k metricKey
		if err := rows.Scan(&id, &k.caseResultID, &k.position); err != nil {
			return fmt.Errorf("insert metric results: %w", err)
		}
		m, ok := byKey[k]
		if !ok {
			return fmt.Errorf("insert metric results: unexpected row (%d, %d) returned", k.caseResultID, k.position)
		}
		m.ID = id
		got++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("insert metric results: %w", err)
	}
	if got != n {
		return fmt.Errorf("insert metric results: %d ids returned for %d rows", got, n)
	}
	return nil
}
