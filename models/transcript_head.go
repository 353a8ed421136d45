package models

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// TranscriptHead reads the first turns of the conversation stored in the
// response metadata of case row id, for a transcript too long to read
// whole: its kind, stop reason and failing turn, its first turns turns
// (each turn's values cut to db's Value cap, as CaseAt cuts a case's),
// and how many turns it has. Only those turns leave the database. It
// returns nil and no error when the case holds no transcript.
func (db *DB) TranscriptHead(ctx context.Context, id int64, turns int) (*Transcript, int, error) {
	n := db.caps.Value
	if n <= 0 {
		return nil, 0, fmt.Errorf("read the first turns of case row %d: no value cap set", id)
	}
	k := strconv.Itoa(turns)
	var query string
	if db.Dialect == PostgreSQL {
		// The metadata is detoasted once; the turns' count and type are
		// read by jsonpath inside it, and each turn shown is taken out on
		// its own: the turns are never copied out whole.
		query = `SELECT jsonb_build_object('kind', r.rm #> '{transcript,kind}', 'stop_reason', r.rm #> '{transcript,stop_reason}',
			'failing_turn', r.rm #> '{transcript,failing_turn}', 'max_turns', r.rm #> '{transcript,max_turns}',
			'turns', COALESCE((SELECT jsonb_agg(` + db.cappedJSON("(r.rm #> ARRAY['transcript', 'turns', (g - 1)::text])", n) + ` ORDER BY g)
				FROM generate_series(1, LEAST(` + k + `, s.len)) AS g), '[]'::jsonb))::text,
			s.len
		FROM (SELECT c.response_metadata #> '{}' AS rm FROM ` + CaseResultsTable + ` AS c WHERE c.id = ? OFFSET 0) AS r,
			LATERAL (SELECT (jsonb_path_query_first(r.rm, '$.transcript.turns.size()'))::int AS len) AS s
		WHERE jsonb_path_query_first(r.rm, '$.transcript.turns.type()') = '"array"'::jsonb`
	} else {
		// Each turn is taken out of the transcript once (MATERIALIZED),
		// so cutting it reads that turn, not the whole transcript again.
		query = `WITH s AS MATERIALIZED (SELECT c.response_metadata -> '$.transcript' AS t FROM ` + CaseResultsTable + ` AS c
			WHERE c.id = ? AND json_valid(c.response_metadata)
			AND json_type(c.response_metadata, '$.transcript.turns') = 'array'),
		g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g, s WHERE i + 1 < min(` + k + `, json_array_length(s.t, '$.turns'))),
		tt AS MATERIALIZED (SELECT g.i, s.t -> ('$.turns[' || g.i || ']') AS turn FROM g, s
			WHERE json_array_length(s.t, '$.turns') > 0)
		SELECT json_object('kind', s.t -> '$.kind', 'stop_reason', s.t -> '$.stop_reason',
			'failing_turn', s.t -> '$.failing_turn', 'max_turns', s.t -> '$.max_turns',
			'turns', json((SELECT COALESCE(json_group_array(json(` + db.cappedJSON("tt.turn", n) + `)), '[]')
				FROM (SELECT turn FROM tt ORDER BY i) AS tt))),
			json_array_length(s.t, '$.turns')
		FROM s`
	}
	var raw string
	var total int
	err := db.QueryRowContext(ctx, query, id).Scan(&raw, &total)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read the first turns of case row %d: %w", id, err)
	}
	var head struct {
		Transcript
		Turns []JSON `json:"turns"`
	}
	if err := json.Unmarshal([]byte(raw), &head); err != nil {
		return nil, 0, fmt.Errorf("read the first turns of case row %d: %w", id, err)
	}
	tr := head.Transcript
	tr.Turns = nil
	for _, j := range head.Turns {
		var cuts []Cut
		var turn TranscriptTurn // a member cut to a string stays unread
		if _, _, err := decodeObject(unfoldCut(j, "turn", &cuts), &turn); err != nil {
			return nil, 0, fmt.Errorf("read the first turns of case row %d: %w", id, err)
		}
		tr.Turns = append(tr.Turns, turn)
	}
	return &tr, total, nil
}
