package dashboard

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// focusState describes the focused element and whether its focus
// indicator is visible: a solid (or other non-none) outline at least 2 px
// wide in a colour other than the background, or a box shadow.
const focusState = `(() => {
  const e = document.activeElement;
  if (!e || e === document.body) return {where: "body", visible: false};
  const s = getComputedStyle(e);
  const bg = getComputedStyle(document.body).backgroundColor;
  const outline = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2 && s.outlineColor !== bg;
  const shadow = s.boxShadow !== "none" && s.boxShadow !== "";
  const cls = typeof e.className === "string" ? e.className : (e.className && e.className.baseVal) || "";
  return {where: e.tagName.toLowerCase() + (cls ? "." + cls.split(" ").join(".") : "") + (e.id ? "#" + e.id : ""),
    visible: outline || shadow, outline: s.outlineStyle + " " + s.outlineWidth + " " + s.outlineColor, shadow: s.boxShadow};
})()`

// focused is the decoded focusState.
type focused struct {
	Where   string `json:"where"`
	Visible bool   `json:"visible"`
	Outline string `json:"outline"`
	Shadow  string `json:"shadow"`
}

// tabTo presses Tab until the focused element matches selector (at most
// max presses) and fails for every element on the way whose focus is not
// visible.
func tabTo(t *testing.T, ctx context.Context, selector string, max int) {
	t.Helper()
	match := fmt.Sprintf(`document.activeElement !== null && document.activeElement.matches(%q)`, selector)
	var path []string
	for i := 0; i < max; i++ {
		if _, err := chromedp.Run(ctx, chromedp.KeyEvent("\t")); err != nil {
			t.Fatalf("press Tab: %v", err)
		}
		f, err := chromedp.Run(ctx, chromedp.Evaluate[focused](focusState))
		if err != nil {
			t.Fatalf("read focus: %v", err)
		}
		path = append(path, f.Where)
		if !f.Visible {
			t.Errorf("Tab %d focuses %s without a visible focus indicator (outline %s, box-shadow %s)", i+1, f.Where, f.Outline, f.Shadow)
		}
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](match)); err == nil && ok {
			return
		}
	}
	t.Fatalf("%d Tab presses never reached %s; focus went %s", max, selector, strings.Join(path, " → "))
}

// pressEnter presses Enter on the focused link and waits until the page's
// path contains want.
func pressEnter(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.KeyEvent("\r")); err != nil {
		t.Fatalf("press Enter: %v", err)
	}
	for {
		p, err := chromedp.Run(wctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.pathname : ""`))
		if err == nil && strings.Contains(p, want) {
			return
		}
		select {
		case <-wctx.Done():
			t.Fatalf("Enter did not lead to a page under %s (at %q, %v)", want, p, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// keyboardJourney goes from the history to a run and on to a case with
// the keyboard only, checking the focus indicator of every element passed.
func keyboardJourney(t *testing.T, ctx context.Context, home string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Navigate(home)); err != nil {
		t.Fatal(err)
	}
	tabTo(t, ctx, "a.run-link", 80)
	pressEnter(t, ctx, "/runs/")
	tabTo(t, ctx, "a.case-link", 80)
	pressEnter(t, ctx, "/cases/")
	if _, err := chromedp.Run(ctx, chromedp.WaitVisible("h1")); err != nil {
		t.Fatal(err)
	}
	tabTo(t, ctx, "a.run-link", 20) // the breadcrumb leads back
	pressEnter(t, ctx, "/runs/")
}

// colourScheme emulates prefers-color-scheme and returns the computed
// background and text colours of a page.
func colourScheme(t *testing.T, ctx context.Context, scheme, url string) (bg, fg string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible("main")); err != nil {
		t.Fatal(err)
	}
	bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
	if err != nil {
		t.Fatal(err)
	}
	fg, err = chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).color`))
	if err != nil {
		t.Fatal(err)
	}
	return bg, fg
}
