package models_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestFactsOf_readsWhatADecodeReads(t *testing.T) {
	yes := true
	tests := []struct {
		name    string
		meta    models.CaseMetadata
		rewrite bool // the column is replaced by an equal copy, as a sanitizer would
	}{
		{name: "kept", meta: models.CaseMetadata{JudgeUsage: models.JudgeUsage{"tone": {}},
			ReplyNote: &models.ReplyNote{Note: "n", ReadAs: "text"}, Extra: map[string]json.RawMessage{"a": json.RawMessage(`1`)}}},
		{name: "repeats", meta: models.CaseMetadata{CaseRepeats: &models.CaseRepeats{PassAtK: &yes, PassHatK: &yes,
			Repeats: []models.RepeatAnswer{{Status: "passed"}, {Status: "passed"}}}}},
		{name: "rewritten column", rewrite: true, meta: models.CaseMetadata{ReplyNote: &models.ReplyNote{Note: "n", ReadAs: "json"}}},
		{name: "a field's key in Extra", meta: models.CaseMetadata{
			Extra: map[string]json.RawMessage{"reply_note": json.RawMessage(`{"note":"x","read_as":"json"}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := tt.meta.Encode()
			if err != nil {
				t.Fatal(err)
			}
			var c models.CaseResult
			c.KeepMetadata(tt.meta, j)
			if tt.rewrite {
				c.ResponseMetadata = append(models.JSON(nil), j...)
			}
			got, err := models.FactsOf(&c)
			if err != nil {
				t.Fatal(err)
			}
			want, err := models.DecodeCaseMetadata(j)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.ReplyNote, want.ReplyNote) || got.Repeated() != want.Repeated() ||
				!reflect.DeepEqual(got.JudgeUsage.Names(), want.JudgeUsage.Names()) {
				t.Errorf("FactsOf = %+v, a decode reads %+v", got, want)
			}
		})
	}
}

// TestFactsOf_decodedColumnReadsAsADecode: a column read from the
// database (no record kept) gives the facts a whole decode gives, also
// when a key's value does not fit its field.
func TestFactsOf_decodedColumnReadsAsADecode(t *testing.T) {
	for _, doc := range []string{
		`{"judge_usage":{"tone":{"calls":1}},"otlp_trace":{"spans":[{"name":"x"}]},"reply_note":{"note":"n","read_as":"text"}}`,
		`{"judge_usage":"not an object","reply_note":7,"pass_at_k":true,"pass_hat_k":false,"repeats":[{"status":"passed"},{"status":"failed"}]}`,
		`{"repeats":"no","pass_at_k":null}`,
		`{}`, `null`,
	} {
		c := models.CaseResult{ResponseMetadata: models.JSON(doc)}
		got, err := models.FactsOf(&c)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		want, _ := models.DecodeCaseMetadata(c.ResponseMetadata)
		if !reflect.DeepEqual(got.ReplyNote, want.ReplyNote) || !reflect.DeepEqual(got.CaseRepeats, want.CaseRepeats) ||
			!reflect.DeepEqual(got.JudgeUsage, want.JudgeUsage) {
			t.Errorf("%s: FactsOf = %+v, a decode reads %+v", doc, got, want)
		}
	}
	if _, err := models.FactsOf(&models.CaseResult{ResponseMetadata: models.JSON(`[1]`)}); err == nil {
		t.Error("FactsOf of an array: no error")
	}
}
