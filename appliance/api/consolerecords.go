package api

import (
	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// consoleRecordRoutes serves the console's memories and action items pages
// with the developer API's handlers, except the lists: the owner reads
// locked memories whole and sees the action items of locked conversations.
func (s *Server) consoleRecordRoutes(g *echo.Group) {
	g.GET("/memories", s.consoleMemories)
	g.POST("/memories", s.createMemory)
	g.PATCH("/memories/:id", s.patchMemory)
	g.DELETE("/memories/:id", s.deleteMemory)
	g.PUT("/memories/:id/locked", s.lockMemory)

	g.GET("/action-items", s.consoleActionItems)
	g.POST("/action-items", s.createActionItem)
	g.PATCH("/action-items/:id", s.patchActionItem)
	g.DELETE("/action-items/:id", s.deleteActionItem)
}

// GET /console/api/memories?limit&offset&categories&sort: the owner's
// memories, newest first, locked ones whole.
func (s *Server) consoleMemories(c echo.Context) error {
	limit, offset, err := queryPage(c, 50, 500)
	if err != nil {
		return err
	}
	f := appliance.MemoryFilter{Limit: limit, Offset: offset, Sort: c.QueryParam("sort")}
	switch f.Sort {
	case "", "created_desc", "updated_desc", "scoring_desc", "manual_first":
	default:
		return errUnprocessable("enum", "Input should be 'created_desc', 'updated_desc', 'scoring_desc' or 'manual_first'", "query", "sort")
	}
	return s.renderMemories(c, f, true) // the owner's own view: never a preview
}

// GET /console/api/action-items?completed&start_date&end_date&due:
// created_at bounds the dates, or due_at with due=true.
func (s *Server) consoleActionItems(c echo.Context) error {
	due, err := queryBool(c, "due", false)
	if err != nil {
		return err
	}
	return s.renderActionItems(c, "start_date", "end_date", due, true)
}
