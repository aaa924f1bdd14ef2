// Package api serves every HTTP path of the contract with echo: the
// developer API, the ID-token surfaces, health, and the console's files.
// It holds the auth middleware, the rate limiter and the one error handler.
package api

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/records"
)

// Conversations is the conversation lifecycle (appliance/conversation):
// every state change of a conversation goes through it.
type Conversations interface {
	Create(ctx context.Context, d conversation.Draft) (*appliance.Conversation, error)
	EndRecording(ctx context.Context, userID string) (*appliance.Conversation, error)
	Update(ctx context.Context, userID, id string, p conversation.Patch) (*appliance.Conversation, error)
	Delete(ctx context.Context, userID, id string) error
	Lock(ctx context.Context, userID, id string, locked bool) error
	Move(ctx context.Context, userID, id string, folderID *string) (*appliance.Conversation, error)
}

// Searcher answers hybrid searches.
type Searcher interface {
	Search(ctx context.Context, userID string, q appliance.SearchQuery) ([]appliance.SearchHit, error)
}

// Deps are the parts a Server is wired from (by hand, in cmd/hearth).
type Deps struct {
	Config appliance.Config
	Store  Store
	// Conversations moves conversations through their lifecycle.
	Conversations Conversations
	// Auth is the one credential check (appliance/authn).
	Auth Authenticator
	// Records writes every record (limits, locks, events) and runs the MCP
	// REST twins: the MCP tools' own operations.
	Records *records.Service
	// MCP is the MCP endpoint's handler (appliance/mcp, built in cmd with
	// MCPTokenInfo as its Verify); nil serves no /v1/mcp/sse.
	MCP http.Handler
	// PublicURL is the appliance's own address for replies that name it;
	// nil derives it from Config.PublicURL, Config.Addr and
	// Config.TrustedProxies.
	PublicURL *PublicURL
	// Listen runs /v4/listen sessions; nil serves no live transcription.
	Listen Listener
	// Transcriber runs batch transcription (/v1/stt/transcribe and the
	// voice messages); nil answers 503.
	Transcriber Transcriber
	// VoiceBudget is the daily allowance of voice-message audio; nil is
	// no budget.
	VoiceBudget VoiceBudget
	// SpeechProfiles records the owner's voice (/v3/upload-audio); nil
	// serves none of the speech-profile routes.
	SpeechProfiles SpeechProfiles
	// ConsoleAuth signs owners in to the console (/console/api); nil
	// serves none of it.
	ConsoleAuth ConsoleAuth
	// Household manages the members and keeps the audit trail; nil
	// serves no members page, and every owner-only console route refuses.
	Household Household
	// Speech is the speech routes in effect and the owner's settings of
	// them, for the console; nil shows no routes and refuses changes.
	Speech Speech
	// ProviderKeys keeps remote vendors' keys entered in the console; nil
	// refuses them.
	ProviderKeys ProviderKeys
	// Models pulls speech models for the console; nil refuses pulls.
	Models ModelPuller
	// Subscriber feeds the console's live view; nil serves none.
	Subscriber appliance.EventSubscriber
	// Searcher answers the console's hybrid searches.
	Searcher Searcher
	// IndexProgress reports the search index's embedding progress for
	// /healthz and the console; nil reports none.
	IndexProgress func() appliance.IndexProgress
	// System describes the running appliance for the console's System
	// page; its zero value shows no version, uptime or log.
	System System
	// Recordings serves conversations' kept audio; nil serves none.
	Recordings Recordings
	// Retranscriber runs "transcribe again" jobs; nil serves none.
	Retranscriber Retranscriber
	Logger        *slog.Logger
	// Console is the web console's file tree (web.FS()); nil serves none.
	Console fs.FS
	// Templates holds server-rendered pages (web.Templates()); nil serves no
	// OAuth consent page.
	Templates fs.FS
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Server is the HTTP surface. It is an http.Handler.
type Server struct {
	cfg          appliance.Config
	store        Store
	conv         Conversations
	auth         Authenticator
	records      *records.Service
	mcp          http.Handler
	public       *PublicURL
	listen       Listener
	transcriber  Transcriber
	voiceBudget  VoiceBudget
	profiles     SpeechProfiles
	consoleAuth  ConsoleAuth
	household    Household
	subscriber   appliance.EventSubscriber
	speech       Speech
	providerKeys ProviderKeys
	models       ModelPuller
	progress     func() appliance.IndexProgress
	system       System
	// backingUp is set while a console backup is being made (one at a time).
	backingUp  atomic.Bool
	searcher   Searcher
	recordings Recordings
	// retranscriber runs "transcribe again" jobs (nil: none).
	retranscriber Retranscriber
	log           *slog.Logger
	now           func() time.Time
	limiter       *Limiter
	oauth         *oauth
	echo          *echo.Echo
}

// New builds the router.
func New(d Deps) (*Server, error) {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	o, err := newOAuth(d.Config, d.Templates)
	if err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	if d.Conversations == nil || d.Auth == nil || d.Records == nil {
		return nil, errors.New("api: Conversations, Auth and Records are required")
	}
	if d.PublicURL == nil {
		if d.PublicURL, err = NewPublicURL(d.Config.PublicURL, d.Config.Addr, d.Config.TrustedProxies); err != nil {
			return nil, err
		}
	}
	if d.VoiceBudget == nil {
		d.VoiceBudget = noBudget{}
	}
	if d.ConsoleAuth != nil && d.Config.RateLimitBoost != 0 {
		d.ConsoleAuth = newSignInGuard(d.ConsoleAuth, d.Now)
	}
	s := &Server{oauth: o, public: d.PublicURL, listen: d.Listen, transcriber: d.Transcriber, voiceBudget: d.VoiceBudget, profiles: d.SpeechProfiles, consoleAuth: d.ConsoleAuth, household: d.Household,
		cfg: d.Config, store: d.Store, conv: d.Conversations, auth: d.Auth, records: d.Records, mcp: d.MCP, subscriber: d.Subscriber,
		speech: d.Speech, providerKeys: d.ProviderKeys, models: d.Models,
		progress: d.IndexProgress, system: d.System, searcher: d.Searcher, recordings: d.Recordings, retranscriber: d.Retranscriber, log: d.Logger, now: d.Now,
		limiter: NewLimiter(d.Config.RateLimitBoost, d.Now),
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// c.RealIP() is the socket's peer; forwarded headers count only from
	// --trusted-proxies (echo's default believes any client's headers).
	e.IPExtractor = d.PublicURL.ClientIP
	e.HTTPErrorHandler = s.errorHandler
	e.Use(middleware.RequestID())
	e.Use(s.recoverPanics)
	e.Use(s.accessLog)
	e.Use(securityHeaders)
	e.Use(bodyDeadline(d.Config.BodyTimeout))
	s.echo = e
	s.routes(d.Console)
	return s, nil
}

func (s *Server) routes(console fs.FS) {
	e := s.echo
	e.GET("/healthz", s.health)

	dev := e.Group("/v1/dev/user")
	read, write := appliance.ScopeConversationsRead, appliance.ScopeConversationsWrite
	dev.POST("/conversations/from-segments", s.createFromSegments, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))
	dev.POST("/conversations", s.createFromText, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))
	dev.GET("/conversations", s.listConversations, s.requireDevKey(read), s.limit(PolicyDevListRead, PolicyDevReadsTotal), s.transcriptPolicy)
	dev.GET("/conversations/:id", s.getConversation, s.requireDevKey(read), s.limit(PolicyDevDetailRead, PolicyDevReadsTotal), s.transcriptPolicy)
	dev.PATCH("/conversations/:id", s.patchConversation, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))
	dev.DELETE("/conversations/:id", s.deleteConversation, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))
	dev.PUT("/conversations/:id/folder", s.moveConversation, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))
	dev.PUT("/conversations/:id/locked", s.lockConversation, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))

	dev.GET("/folders", s.listFolders, s.requireDevKey(read), s.limit(PolicyDevListRead, PolicyDevReadsTotal))
	dev.POST("/folders", s.createFolder, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))
	dev.PATCH("/folders/:id", s.patchFolder, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))
	dev.DELETE("/folders/:id", s.deleteFolder, s.requireDevKey(write), s.limit(PolicyDevConversationsWrite))

	memRead, memWrite := appliance.ScopeMemoriesRead, appliance.ScopeMemoriesWrite
	dev.GET("/memories", s.listMemories, s.requireDevKey(memRead), s.limit(PolicyDevMemoriesRead))
	dev.POST("/memories", s.createMemory, s.requireDevKey(memWrite), s.limit(PolicyDevMemoriesWrite))
	dev.POST("/memories/batch", s.createMemoriesBatch, s.requireDevKey(memWrite), s.limit(PolicyDevMemoriesBatch))
	dev.PATCH("/memories/:id", s.patchMemory, s.requireDevKey(memWrite), s.limit(PolicyDevMemoriesWrite))
	dev.DELETE("/memories/:id", s.deleteMemory, s.requireDevKey(memWrite), s.limit(PolicyDevMemoriesWrite))
	dev.PUT("/memories/:id/locked", s.lockMemory, s.requireDevKey(memWrite), s.limit(PolicyDevMemoriesWrite))

	aiRead, aiWrite := appliance.ScopeActionItemsRead, appliance.ScopeActionItemsWrite
	dev.GET("/action-items", s.listActionItems, s.requireDevKey(aiRead), s.limit(PolicyDevActionItemsRead))
	dev.POST("/action-items", s.createActionItem, s.requireDevKey(aiWrite), s.limit(PolicyDevActionItemsWrite))
	dev.POST("/action-items/batch", s.createActionItemsBatch, s.requireDevKey(aiWrite), s.limit(PolicyDevActionItemsWrite))
	dev.PATCH("/action-items/:id", s.patchActionItem, s.requireDevKey(aiWrite), s.limit(PolicyDevActionItemsWrite))
	dev.DELETE("/action-items/:id", s.deleteActionItem, s.requireDevKey(aiWrite), s.limit(PolicyDevActionItemsWrite))

	goalRead, goalWrite := appliance.ScopeGoalsRead, appliance.ScopeGoalsWrite
	dev.GET("/goals", s.listGoals, s.requireDevKey(goalRead), s.limit(PolicyDevGoalsRead))
	dev.GET("/goals/:id", s.getGoal, s.requireDevKey(goalRead), s.limit(PolicyDevGoalsRead))
	dev.GET("/goals/:id/history", s.goalHistory, s.requireDevKey(goalRead), s.limit(PolicyDevGoalsRead))
	dev.POST("/goals", s.createGoal, s.requireDevKey(goalWrite), s.limit(PolicyDevGoalsWrite))
	dev.PATCH("/goals/:id", s.patchGoal, s.requireDevKey(goalWrite), s.limit(PolicyDevGoalsWrite))
	dev.PATCH("/goals/:id/progress", s.goalProgress, s.requireDevKey(goalWrite), s.limit(PolicyDevGoalsWrite))
	dev.DELETE("/goals/:id", s.deleteGoal, s.requireDevKey(goalWrite), s.limit(PolicyDevGoalsWrite))

	s.keyRoutes()
	s.pairingRoutes()
	e.GET("/v1/mcp/sse/info", s.mcpInfo)
	s.mcpRoutes()
	s.mountMCP()

	// OAuth 2.1 for assistant connectors.
	e.GET(protectedResourcePrefix, s.protectedResourceMetadata)
	for _, path := range mcpPaths {
		e.GET(protectedResourcePrefix+path, s.protectedResourceMetadata)
	}
	e.GET("/.well-known/oauth-authorization-server", s.authorizationServerMetadata)
	e.GET("/oauth/authorize", s.authorizePage)
	e.POST("/oauth/authorize", s.authorizeDecision)
	e.POST("/oauth/token", s.token)
	e.POST("/oauth/revoke", s.revoke)
	e.POST("/oauth/register", s.registerClient)

	// Live transcription (the socket checks its own uid and token).
	e.GET("/v4/listen", s.listenSocket)
	e.GET("/v1/custom-stt", s.customSTTSocket)

	// Surfaces authenticated by this appliance's own ID tokens.
	e.POST("/v1/conversations", s.endRecording, s.requireIDToken)
	e.POST("/v1/stt/transcribe", s.sttTranscribe, s.requireIDToken, s.limit(PolicySTTTranscribe))
	s.openaiAudioRoutes(e)
	e.POST("/v2/voice-message/transcribe", s.voiceTranscribe, s.requireIDToken, s.limit(PolicyVoiceTranscribe))
	e.POST("/v2/voice-messages", s.voiceMessages, s.requireIDToken, s.limit(PolicyVoiceMessage))
	s.consoleAuthRoutes()
	if s.profiles != nil {
		e.POST("/v3/upload-audio", s.uploadSpeechProfile, s.requireIDToken, s.limit(PolicySpeechProfile))
		e.GET("/v3/speech-profile", s.hasSpeechProfile, s.requireIDToken)
		e.GET("/v3/speech-profile/status", s.speechProfileStatus, s.requireIDToken)
		e.GET("/v3/speech-profile/audio", s.speechProfileAudio, s.requireIDToken)
		e.DELETE("/v3/speech-profile", s.deleteSpeechProfile, s.requireIDToken)
		e.GET("/v4/speech-profile", s.speechProfileURL, s.requireIDToken)
	}
	e.POST("/v1/conversations/from-segments", s.createFromSegments, s.requireIDToken, s.limit(PolicyFromSegments))
	e.GET("/v1/search", s.consoleSearch, s.requireIDToken)
	// The console's lock switches (the owner, signed in with an ID token).
	e.PUT("/v1/console/memories/:id/locked", s.lockMemory, s.requireIDToken)
	e.PUT("/v1/console/conversations/:id/locked", s.lockConversation, s.requireIDToken)
	s.retranscribeRoutes(e.Group("/v1"), s.requireIDToken)

	// /v1/memories and /v2/memories are deliberately not routes: they answer
	// 404 whatever the credential, as the contract requires.
	// The console answers every method on unknown paths so that they are a
	// plain 404, never a 405 that would hint at a route.
	if console != nil {
		e.Any("/*", consoleHandler(console))
	}
}

// health serves GET /healthz: 200 once serving, with the search index's
// state as a share (no counts: this endpoint needs no credential). Until
// the index has started (a restart answers while the store's connections
// open) it says so rather than give a share it has not read.
func (s *Server) health(c echo.Context) error {
	out := map[string]any{"status": "ok"}
	if s.progress != nil {
		p := s.progress()
		if p.Model == "" {
			out["search_index"] = map[string]any{"starting": true}
			return c.JSON(http.StatusOK, out)
		}
		idx := map[string]any{"model": p.Model, "embedded": embeddedShare(p), "reembedding": p.Reembed}
		if p.LastError != "" {
			idx["error"] = "embedding is failing; see the appliance's log"
		}
		out["search_index"] = idx
	}
	return c.JSON(http.StatusOK, out)
}

// embeddedShare is the embedded part of the index to three decimals,
// floored rather than rounded: 1 must mean every item is embedded (clients
// such as hearth-bench wait for it), and a rounded 0.9996 would say so with
// items still pending.
func embeddedShare(p appliance.IndexProgress) float64 {
	if p.Total <= 0 || p.Embedded >= p.Total {
		return 1
	}
	return math.Floor(float64(p.Embedded)*1000/float64(p.Total)) / 1000
}

// transcriptPolicy charges include_transcript=true reads to their own,
// smaller budget, in addition to the read policies.
func (s *Server) transcriptPolicy(next echo.HandlerFunc) echo.HandlerFunc {
	charge := s.limit(PolicyDevTranscriptRead)(next)
	return func(c echo.Context) error {
		if b, err := queryBool(c, "include_transcript", false); err == nil && b {
			return charge(c)
		}
		return next(c)
	}
}

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Close releases the server's resources. Background work belongs to the
// parts passed in Deps, which their owner closes.
func (s *Server) Close() {}

func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panic in handler", "req_id", c.Response().Header().Get(echo.HeaderXRequestID),
					"path", c.Path(), "panic", r)
				err = appliance.Errorf(appliance.EINTERNAL, "Internal error.")
			}
		}()
		return next(c)
	}
}

// AccessLogMessage is the message of the access log's lines, which the
// console's log keeps at any level.
const AccessLogMessage = "http"

// accessLog logs one line per request at debug (errors at warn); it never
// logs headers, query values or bodies, which may carry secrets.
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		status := c.Response().Status
		level := slog.LevelDebug
		if status >= 500 {
			level = slog.LevelWarn
		}
		s.log.Log(c.Request().Context(), level, AccessLogMessage,
			"req_id", c.Response().Header().Get(echo.HeaderXRequestID),
			"method", c.Request().Method, "route", c.Path(), "status", status,
			"ms", float64(time.Since(start).Microseconds())/1000)
		return nil
	}
}

func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		return next(c)
	}
}
