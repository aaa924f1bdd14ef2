package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
)

// consolePeopleRoutes serves the People page: the speakers the owner has
// named, renamed, merged or deleted. A running session reads the known
// voices again at each identification (speaker.Household), so it sees a
// change at once and never brings a deleted person back.
func (s *Server) consolePeopleRoutes(g *echo.Group) {
	g.GET("/people", s.consolePeople)
	g.PATCH("/people/:id", s.consoleRenamePerson)
	g.POST("/people/:id/merge", s.consoleMergePeople)
	g.DELETE("/people/:id", s.consoleDeletePerson)
}

// consolePerson is a person on the People page.
type consolePerson struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	// Segments counts the transcript segments that name them.
	Segments int `json:"segments"`
}

// GET /console/api/people: oldest first.
func (s *Server) consolePeople(c echo.Context) error {
	ctx, uid := c.Request().Context(), userID(c)
	ps, err := s.store.Persons(ctx, uid)
	if err != nil {
		return err
	}
	counts, err := s.store.PersonSegments(ctx, uid)
	if err != nil {
		return err
	}
	out := make([]consolePerson, len(ps))
	for i, p := range ps {
		out[i] = consolePerson{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, Segments: counts[p.ID]}
	}
	return c.JSON(http.StatusOK, out)
}

// PATCH /console/api/people/{id} {name}
func (s *Server) consoleRenamePerson(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	name, _ := f.str("name", true)
	if n := len([]rune(strings.TrimSpace(name))); v.Err() == nil && (n < 1 || n > records.MaxName) {
		f.fail("name", "string_length", "A name has 1 to 100 characters")
	}
	if err := v.Err(); err != nil {
		return err
	}
	ctx, uid := c.Request().Context(), userID(c)
	p, err := s.records.RenamePerson(ctx, uid, c.Param("id"), name)
	if err != nil {
		return err
	}
	counts, err := s.store.PersonSegments(ctx, uid)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, consolePerson{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, Segments: counts[p.ID]})
}

// POST /console/api/people/{id}/merge {into}: 204; {id}'s segments and
// voice become {into}'s and {id} is gone.
func (s *Server) consoleMergePeople(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	into, _ := newFields(m, v, "body").str("into", true)
	if err := v.Err(); err != nil {
		return err
	}
	if into == c.Param("id") {
		return errUnprocessable("value_error", "A person cannot be merged into themself", "body", "into")
	}
	if err := s.records.MergePeople(c.Request().Context(), userID(c), c.Param("id"), into); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// DELETE /console/api/people/{id}: 204.
func (s *Server) consoleDeletePerson(c echo.Context) error {
	if err := s.records.DeletePerson(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
