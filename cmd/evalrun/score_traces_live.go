package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/monitor"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
	"github.com/agentevals-go/agentevals/tracefile"
)

// liveGrace is how long scoring may go on after the signal that closed a
// live window early; a second signal stops at once.
const liveGrace = 30 * time.Second

// source checks that the window comes from files or a listener, and the
// shard flags.
func (c *ScoreTracesCmd) source(save *SaveFlags) (*suite.ShardSpec, error) {
	switch {
	case (len(c.Traces) > 0) == (c.Listen != ""):
		return nil, errors.New("score-traces: give the window as --traces FILE... or as --listen ADDR --window DURATION")
	case c.Listen != "" && c.Window <= 0:
		return nil, fmt.Errorf("--listen %s needs --window DURATION, a positive duration such as 10m", c.Listen)
	case c.Listen == "" && c.Window != 0:
		return nil, errors.New("--window is the length of a live window: give it with --listen ADDR")
	case c.Listen != "" && c.Shard != "":
		return nil, errors.New("--shard splits a window of files that every shard reads; a live window is what one listener received: score it whole")
	}
	return save.check()
}

// read reads the window from the files or the listener.
func (c *ScoreTracesCmd) read(ctx context.Context, g *Globals, m *monitor.Monitor) (*monitor.Window, error) {
	if c.Listen == "" {
		return m.Read(c.Traces, tracefile.Limits{})
	}
	return c.listen(ctx, g, m)
}

// listen receives spans over OTLP/HTTP for the window, or until the first
// SIGINT or SIGTERM, and reads them as a file of the same spans.
func (c *ScoreTracesCmd) listen(ctx context.Context, g *Globals, m *monitor.Monitor) (*monitor.Window, error) {
	live := monitor.NewLive()
	rcv, err := otlp.StartSink(c.Listen, otlp.Limits{}, live.Take)
	if err != nil {
		return nil, err
	}
	endpoint := rcv.Endpoint()
	type read struct {
		w   *monitor.Window
		err error
	}
	done := make(chan read, 1)
	go func() {
		w, err := m.ReadFrom([]monitor.Source{live.Source(endpoint + otlp.TracesPath)}, tracefile.Limits{})
		live.Stop()
		done <- read{w, err}
	}()
	var stop <-chan struct{}
	reason := func() string { return "" }
	if g.signals != nil {
		stop, reason = g.signals.gracefulThen(liveGrace, fmt.Sprintf("the live window closes now; what arrived is scored and saved within %s", liveGrace))
	}
	began := time.Now()
	fmt.Fprintf(g.Stdout, "Listening for spans on %s%s for %s (OTEL_EXPORTER_OTLP_ENDPOINT=%s)\n", endpoint, otlp.TracesPath, c.Window, endpoint)
	timer := time.NewTimer(c.Window)
	defer timer.Stop()
	early := ""
	var failed *read
	select {
	case <-timer.C:
	case <-stop:
		early = reason()
	case <-ctx.Done():
		early = context.Cause(ctx).Error()
	case r := <-done: // the reader stops early only on spans it cannot read
		failed = &r
	}
	_ = rcv.Close()
	live.Close()
	r := read{}
	if failed != nil {
		r = *failed
	} else {
		r = <-done
	}
	requests, dropped := live.Counts()
	if early != "" {
		early = fmt.Sprintf("%s after %s of %s: the %d requests received were scored", early, time.Since(began).Round(time.Millisecond), c.Window, requests)
		fmt.Fprintf(g.Stdout, "Window closed early (%s)\n", sanitize.EscapeText(early))
	}
	switch {
	case requests == 0:
		return nil, fmt.Errorf("no spans arrived at %s%s in the window (%s)", endpoint, otlp.TracesPath, c.Window)
	case r.err != nil:
		return nil, r.err
	}
	r.w.Record.Listen, r.w.Record.Window, r.w.Record.ClosedEarly = endpoint, c.Window.String(), early
	if dropped > 0 {
		r.w.Notes = append(r.w.Notes, fmt.Sprintf("%d requests arrived after the window closed and were not scored", dropped))
	}
	return r.w, nil
}

// shardRecord is a shard's production record. Every shard reads the
// whole window, and merging shards adds their numbers up, so the
// window's counts go on shard 1 alone and the merged run holds them once.
func shardRecord(p models.Production, spec suite.ShardSpec) models.Production {
	if spec.Index == 1 {
		return p
	}
	return models.Production{Monitor: p.Monitor, WindowStart: p.WindowStart, WindowEnd: p.WindowEnd, Files: p.Files,
		Listen: p.Listen, Window: p.Window, ClosedEarly: p.ClosedEarly}
}
