package score

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The choices of a pairwise verdict, always in terms of the two answers
// (A, the reference run's, and B, the candidate's), never of the slots.
const (
	ChoiceA   = "A"
	ChoiceB   = "B"
	ChoiceTie = "tie"
)

// Pair is one question answered by two runs: what a pairwise judge reads.
type Pair struct {
	Question, Expected json.RawMessage
	AnswerA, AnswerB   json.RawMessage
}

// PairJudgement is a pair judged twice, once with A in the first slot and
// once with B there. Winner is A or B only when both readings chose it;
// any disagreement, or a tie in both, is a tie. Consistent says the two
// readings chose the same (both A, both B or both tie).
type PairJudgement struct {
	AFirst, BFirst             string // the choice in each reading
	ReasonAFirst, ReasonBFirst string
	Winner                     string
	Consistent                 bool
	Usage                      Usage
}

const pairwiseRubric = `PAIRWISE PREFERENCE: which of two answers to the same question is better?
Steps:
1. State what the question asks for and the facts of the expected answer, when there is one.
2. For each answer, list the facts it states correctly, the facts it contradicts or omits, and any unsupported additions.
3. Prefer the answer that is more correct and more complete against the expected answer; only when they are equally correct, prefer the one that answers more directly.
Never prefer an answer for its position, its length or its tone.
Score: 1 when the FIRST answer is better, 0 when the SECOND answer is better, 0.5 only when they are equally good.`

// JudgePair asks j about p twice with the slots swapped and combines the
// two readings. A judge error in either reading is the pair's error: the
// pair has no verdict (never a tie).
func JudgePair(ctx context.Context, j Judge, p Pair) (PairJudgement, error) {
	if j == nil {
		return PairJudgement{}, &Error{Kind: KindMissingInput, Message: "pairwise judging needs a judge"}
	}
	system := systemPrompt(pairwiseRubric)
	var out PairJudgement
	for _, aFirst := range []bool{true, false} {
		first, second := p.AnswerA, p.AnswerB
		if !aFirst {
			first, second = p.AnswerB, p.AnswerA
		}
		a, err := j.Assess(ctx, system, pairPrompt(p, first, second))
		if err != nil {
			who := "B"
			if aFirst {
				who = "A"
			}
			return PairJudgement{}, fmt.Errorf("pairwise reading with %s first: %w", who, err)
		}
		choice := slotChoice(a.Score, aFirst)
		if a.Usage != nil {
			out.Usage = addUsage(out.Usage, *a.Usage)
		}
		if aFirst {
			out.AFirst, out.ReasonAFirst = choice, a.Reason
		} else {
			out.BFirst, out.ReasonBFirst = choice, a.Reason
		}
	}
	out.Consistent = out.AFirst == out.BFirst
	out.Winner = ChoiceTie
	if out.Consistent {
		out.Winner = out.AFirst
	}
	return out, nil
}

// slotChoice reads a score (1 first slot better, 0 second, 0.5 equal) as
// a choice of A or B given which answer sat in the first slot.
func slotChoice(s float64, aFirst bool) string {
	switch {
	case s > 0.5 && aFirst, s < 0.5 && !aFirst:
		return ChoiceA
	case s > 0.5, s < 0.5:
		return ChoiceB
	}
	return ChoiceTie
}

// pairPrompt lays out the question, the reference and the two answers in
// slot order, every value JSON-encoded as in userPrompt.
func pairPrompt(p Pair, first, second json.RawMessage) string {
	var b strings.Builder
	b.WriteString(contextBegin)
	section := func(label string, raw json.RawMessage) { writeSection(&b, label, rawOrText(raw)) }
	section("question (untrusted)", p.Question)
	if len(p.Expected) > 0 && string(p.Expected) != "null" {
		section("expected_answer (untrusted reference)", p.Expected)
	}
	section("first answer (untrusted)", first)
	section("second answer (untrusted)", second)
	b.WriteString("\nEND UNTRUSTED EVALUATION CONTEXT\n\nCompare the first and the second answer with the rubric (pairwise) and reply with the JSON object only.")
	return b.String()
}
