package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/retranscribe"
)

// Retranscriber runs "transcribe again" jobs (retranscribe.Runner).
type Retranscriber interface {
	Start(ctx context.Context, q retranscribe.Request) (*appliance.RetranscribeJob, error)
	Job(ctx context.Context, userID, id string) (*appliance.RetranscribeJob, error)
	Jobs(ctx context.Context, userID string) ([]*appliance.RetranscribeJob, error)
	Cancel(ctx context.Context, userID, id string) (*appliance.RetranscribeJob, error)
	Routes() []string
}

// retranscribeRoutes serves the jobs to the signed-in user (the console)
// and to an ID token (`hearth retranscribe`): the same handlers, every
// job and conversation looked up as the caller's own, so another user's
// is a 404.
func (s *Server) retranscribeRoutes(g *echo.Group, mw ...echo.MiddlewareFunc) {
	if s.retranscriber == nil {
		return
	}
	g.GET("/retranscribe", s.retranscribeJobs, mw...)
	g.POST("/retranscribe", s.retranscribeStart, mw...)
	g.GET("/retranscribe/:id", s.retranscribeJob, mw...)
	g.DELETE("/retranscribe/:id", s.retranscribeCancel, mw...)
}

// GET …/retranscribe: the routes a job may name and the caller's latest
// jobs, newest first.
func (s *Server) retranscribeJobs(c echo.Context) error {
	jobs, err := s.retranscriber.Jobs(c.Request().Context(), userID(c))
	if err != nil {
		return err
	}
	if jobs == nil {
		jobs = []*appliance.RetranscribeJob{}
	}
	return c.JSON(http.StatusOK, map[string]any{"routes": s.retranscriber.Routes(), "jobs": jobs})
}

// POST …/retranscribe {"conversation_ids": [...] | "all": true, "route": ""}:
// queues a job (202).
func (s *Server) retranscribeStart(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	q := retranscribe.Request{UserID: userID(c)}
	q.Route, _ = f.str("route", false)
	q.All, _ = f.bool("all", false)
	if raw, ok := f.get("conversation_ids", false); ok {
		list, isList := raw.([]any)
		if !isList {
			f.fail("conversation_ids", "list_type", "Input should be a valid list")
		}
		for i, x := range list {
			id, isStr := x.(string)
			if !isStr || id == "" {
				newFields(nil, v, "body", "conversation_ids").fail(i, "string_type", "Input should be a conversation id")
				continue
			}
			q.ConversationIDs = append(q.ConversationIDs, id)
		}
	}
	if q.All == (len(q.ConversationIDs) > 0) {
		f.fail("conversation_ids", "value_error", "Name the conversations, or ask for all")
	}
	if err := v.Err(); err != nil {
		return err
	}
	j, err := s.retranscriber.Start(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, j)
}

// GET …/retranscribe/:id: one of the caller's jobs, with its progress.
func (s *Server) retranscribeJob(c echo.Context) error {
	j, err := s.retranscriber.Job(c.Request().Context(), userID(c), c.Param("id"))
	if err != nil {
		return notFoundAs(err, "Job not found")
	}
	return c.JSON(http.StatusOK, j)
}

// DELETE …/retranscribe/:id: cancels one of the caller's open jobs.
func (s *Server) retranscribeCancel(c echo.Context) error {
	j, err := s.retranscriber.Cancel(c.Request().Context(), userID(c), c.Param("id"))
	if err != nil {
		return notFoundAs(err, "Job not found")
	}
	return c.JSON(http.StatusOK, j)
}
