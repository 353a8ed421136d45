package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/models"
)

// conversationCase is a failed 2-turn conversation whose messages carry
// markup: turn 2's check failed.
func conversationCase(tb testing.TB) *models.CaseResult {
	tb.Helper()
	failing, reason := 2, `output "What is your <b>order</b> number?" does not contain "Friday"`
	zero, one := 0.0, 1.0
	meta, err := models.CaseMetadata{Transcript: &models.Transcript{Kind: "scripted",
		ConversationID: "c1", StopReason: models.StopScriptEnd, FailingTurn: &failing,
		Turns: []models.TranscriptTurn{
			{Turn: 1, User: "My order is A-1042 <script>alert(1)</script>", Output: models.JSON(`"Order A-1042 ships."`), DurationMS: 12,
				Checks: []models.TurnCheck{{Name: "turn1.contains", Threshold: 1, Score: &one, Passed: true}}},
			{Turn: 2, User: "When will it arrive?", Output: models.JSON(`"What is your <b>order</b> number?"`), DurationMS: 9,
				Checks: []models.TurnCheck{{Name: "turn2.contains", Threshold: 1, Score: &zero, Reason: &reason}}},
		}}}.Encode()
	if err != nil {
		tb.Fatal(err)
	}
	return &models.CaseResult{Position: 0, CaseID: "order", Name: "order", Status: models.StatusFailed, DurationMS: 30,
		Question: models.JSON(`"My order is A-1042"`), Metadata: models.JSON(`{}`), Output: models.JSON(`"What is your <b>order</b> number?"`),
		ResponseMetadata: meta,
		Metrics:          []*models.MetricResult{metric(0, "turn1.contains", 1, f64(1), true, "ok"), metric(1, "turn2.contains", 1, f64(0), false, reason)}}
}

// TestCasePage_Transcript: the case page shows a conversation as a chat,
// each turn's checks beside it, the failing turn marked and linked, and
// every message escaped.
func TestCasePage_Transcript(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	run := &models.Run{Suite: "Conversations", Agent: "A", Version: "1", SuiteDigest: "dc",
		StartedAt: t0.Add(7 * time.Hour), FinishedAt: t0.Add(7*time.Hour + time.Second), Cases: []*models.CaseResult{conversationCase(t)}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	r := mustGet(t, MustServe(t, ro, mount).URL+mount+"/runs/"+run.ID.String()+"/cases/0", http.StatusOK)
	turns := mustSelect(t, r.Doc, "ol.chat li.chat-turn")
	if len(turns) != 2 {
		t.Fatalf("%d turns shown, want 2", len(turns))
	}
	if c, _ := attr(turns[1], "class"); !strings.Contains(c, "chat-failing") {
		t.Errorf("turn 2 is not marked failing (class %q)", c)
	}
	if c, _ := attr(turns[0], "class"); strings.Contains(c, "chat-failing") {
		t.Error("turn 1 is marked failing")
	}
	if got := text(turns[1]); !strings.Contains(got, "failing turn") || !strings.Contains(got, "turn2.contains") || !strings.Contains(got, `does not contain "Friday"`) {
		t.Errorf("turn 2 lacks its mark or its check: %q", got)
	}
	if got := text(turns[0]); !strings.Contains(got, "<script>alert(1)</script>") {
		t.Errorf("turn 1 does not show the user's text as written: %q", got)
	}
	if len(selectAll(r.Doc, "ol.chat script")) != 0 || len(selectAll(r.Doc, "ol.chat b")) != 0 {
		t.Error("a message became markup")
	}
	links := mustSelect(t, r.Doc, `p.conversation-stop a`)
	if href, _ := attr(links[0], "href"); href != "#turn-2" {
		t.Errorf("the failing turn links to %q, want #turn-2", href)
	}
}

// TestBrowser_Transcript opens a conversation's case page in headless
// Chromium: the chat renders with the failing turn visibly marked, its
// checks beside its messages on a wide screen, a user's markup stays text
// (no dialog, no console error), and the failing-turn link scrolls to it.
func TestBrowser_Transcript(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	run := &models.Run{Suite: "Conversations", Agent: "A", Version: "1", SuiteDigest: "dc",
		StartedAt: t0.Add(7 * time.Hour), FinishedAt: t0.Add(7*time.Hour + time.Second), Cases: []*models.CaseResult{conversationCase(t)}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	srv := MustServe(t, ro, mount)
	ctx, bl := newBrowser(t)
	step, eval := browserSteps(t, ctx)
	step("wide viewport", chromedp.EmulateViewport(1280, 900))
	step("case page", chromedp.Navigate(srv.URL+mount+"/runs/"+run.ID.String()+"/cases/0"), chromedp.WaitVisible("ol.chat"))
	if got := eval(`document.querySelector("li.chat-failing").id`); got != "turn-2" {
		t.Errorf("the failing turn is %v, want turn-2", got)
	}
	if got := eval(`getComputedStyle(document.querySelector("li.chat-failing")).borderLeftColor !== getComputedStyle(document.querySelector("#turn-1")).borderLeftColor`); got != true {
		t.Error("the failing turn does not look different from a passing one")
	}
	if got := eval(`(() => { const m = document.querySelector("#turn-2 .chat-messages").getBoundingClientRect(), c = document.querySelector("#turn-2 .chat-checks").getBoundingClientRect(); return c.left >= m.right - 1 })()`); got != true {
		t.Error("turn 2's checks are not beside its messages on a wide screen")
	}
	if got := eval(`document.querySelector("#turn-1 .chat-user pre").textContent`); got != "My order is A-1042 <script>alert(1)</script>" {
		t.Errorf("turn 1's message reads %v", got)
	}
	step("follow the failing-turn link", chromedp.Click("p.conversation-stop a"))
	if got := eval(`location.hash`); got != "#turn-2" {
		t.Errorf("the link went to %v", got)
	}
	bl.mu.Lock()
	defer bl.mu.Unlock()
	if p := bl.problems; len(p) > 0 {
		t.Errorf("the page reported problems: %v", p)
	}
}
