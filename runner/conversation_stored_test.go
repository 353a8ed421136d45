package runner

import (
	"context"
	"encoding/json"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// promptJudge keeps the user prompts it is sent and scores 0.9.
type promptJudge struct {
	mu    sync.Mutex
	users []string
}

func (j *promptJudge) Assess(_ context.Context, _, user string) (score.Assessment, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.users = append(j.users, user)
	return score.Assessment{Score: 0.9, Reason: "kept"}, nil
}

// TestStoredMetricSample: re-judging a saved conversation sends the judge
// the prompt the run sent, rebuilt from the transcript; a turn check gets
// its turn's exchange back.
func TestStoredMetricSample(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [{"id": "q", "turns": ["My number is 7.", {"content": "What is it?", "checks": [{"type": "contains", "value": "7"}]}],
    "minimum_scores": {"knowledge_retention": 0.8}}]}`)
	bot := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal(map[int]string{1: "Noted.", 2: "It is 7."}[q.Turn])
		return agent.Response{Output: out, Actions: []score.Action{{Name: "note"}}}, nil
	})
	j := &promptJudge{}
	run := mustExecute(t, s, bot, ExecOptions{Judge: j})
	row, c := run.Cases[0], s.Cases[0]
	base := SampleOf(c)
	base.Output = json.RawMessage(row.Output)
	stored := StoredMetricSample(c, row.ResponseMetadata, "knowledge_retention", base)
	if got := score.ConversationPrompt(score.KnowledgeRetention, "", stored).User; len(j.users) != 1 || got != j.users[0] {
		t.Errorf("rebuilt prompt differs from the one sent:\n%s\nwant\n%v", got, j.users)
	}
	turn := StoredMetricSample(c, row.ResponseMetadata, "turn2.contains", base)
	if string(turn.Output) != `"It is 7."` || string(turn.Question) != `"What is it?"` || len(turn.Actions) != 1 || turn.Conversation != nil {
		t.Errorf("turn 2 sample: %+v", turn)
	}
}

// TestConverse_TurnReplay: a turn's own api_interactions are a strict
// replay session of that turn alone: a turn that makes its declared
// request passes with the evidence beside the turn; one that calls
// something else ends the conversation with an api_replay error at that
// turn.
func TestConverse_TurnReplay(t *testing.T) {
	fixture := `[{"expect_request": {"method": "GET", "url": "https://orders.example/orders/A-1"}, "respond_with": {"status": 200, "json": {"eta": "Friday"}}}]`
	s := mustLoad(t, `{"suite": "S", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [
    {"id": "ok", "turns": ["Order A-1.", {"content": "When?", "api_interactions": `+fixture+`, "checks": [{"type": "contains", "value": "Friday"}]}]},
    {"id": "bad", "turns": ["Order A-1.", {"content": "When?", "api_interactions": `+fixture+`}], "checks": [{"type": "contains", "value": "Friday"}]}
  ]}`)
	bot := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		if q.Turn == 1 {
			return agent.Response{Output: json.RawMessage(`"Noted."`)}, nil
		}
		url := "https://orders.example/orders/A-1"
		if q.ID == "bad" {
			url = "https://orders.example/orders/B-2"
		}
		res, err := agent.HTTPClient(ctx).Get(url)
		if err != nil {
			return agent.Response{}, err
		}
		defer res.Body.Close()
		var body struct{ ETA string }
		_ = json.NewDecoder(res.Body).Decode(&body)
		out, _ := json.Marshal("It arrives " + body.ETA + ".")
		return agent.Response{Output: out}, nil
	})
	run := mustExecute(t, s, bot, ExecOptions{Concurrency: 1})
	ok, bad := caseByID(t, run, "ok"), caseByID(t, run, "bad")
	okMeta, _ := models.DecodeCaseMetadata(ok.ResponseMetadata)
	if ok.Status != models.StatusPassed || okMeta.Transcript == nil || okMeta.Transcript.Turns[1].APIReplay == nil ||
		!okMeta.Transcript.Turns[1].APIReplay.Passed || okMeta.Transcript.Turns[0].APIReplay != nil {
		t.Errorf("ok: status %s, metadata %s", ok.Status, ok.ResponseMetadata)
	}
	badMeta, _ := models.DecodeCaseMetadata(bad.ResponseMetadata)
	if bad.Status != models.StatusError || !strings.Contains(string(bad.ErrorDetails), "api_replay") ||
		badMeta.Transcript == nil || *badMeta.Transcript.FailingTurn != 2 || badMeta.Transcript.Turns[1].APIReplay == nil {
		t.Errorf("bad: status %s, error %s, metadata %s", bad.Status, bad.ErrorDetails, bad.ResponseMetadata)
	}
}

// TestConverse_Record: recording a conversation keeps every turn's
// requests, in order, as the question's api_interactions, and the
// recorded suite replays strictly with the upstream gone.
func TestConverse_Record(t *testing.T) {
	up := httptest.NewServer(weatherUpstream())
	dir := t.TempDir()
	path := testfile.Write(t, dir, "suite.json", `{"suite": "S", "version": "1", "agent": {"name": "Bot", "command": ["true"]},
  "questions": [{"id": "weather", "turns": ["Paris?", "Oslo?"], "checks": [{"type": "contains", "value": "Oslo"}]}]}`)
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	bot := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		city := strings.TrimSuffix(q.Messages[len(q.Messages)-1].Content, "?")
		res, err := agent.HTTPClient(ctx).Get(up.URL + "/weather?city=" + city)
		if err != nil {
			return agent.Response{}, err
		}
		defer res.Body.Close()
		var w struct{ City string }
		_ = json.NewDecoder(res.Body).Decode(&w)
		out, _ := json.Marshal("Weather in " + w.City)
		return agent.Response{Output: out}, nil
	})
	recs := suite.NewRecordings()
	if run := mustExecute(t, s, bot, ExecOptions{Record: recs}); run.Cases[0].Status != models.StatusPassed {
		t.Fatalf("recording run: %s %s", run.Cases[0].Status, run.Cases[0].ErrorDetails)
	}
	res, err := recs.Write(s, filepath.Join(dir, "recorded.json"))
	if err != nil || res.Requests != 2 {
		t.Fatalf("Write: %v (%+v)", err, res)
	}
	up.Close()
	replayed, err := suite.Load(res.Suite)
	if err != nil {
		t.Fatal(err)
	}
	if run := mustExecute(t, replayed, bot, ExecOptions{}); run.Cases[0].Status != models.StatusPassed {
		t.Errorf("replay of the recorded conversation: %s %s", run.Cases[0].Status, run.Cases[0].ErrorDetails)
	}
}
