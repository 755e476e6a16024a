import Display
import Graphics
import HAL
import Log
import Loop
import Screens

/// The watch's display, from the model's state to the glass: the renderer
/// draws the model's screen into the framebuffer, the panel driver sends
/// what changed. Redraws are coalesced (many events in one loop iteration
/// draw once, through `loop.deferWork`); dark, nothing is drawn, and waking
/// draws the current state before the panel lights. Now Playing redraws
/// when its progress next changes on the panel (only while shown and lit).
///
/// Made once; rendering, flushing and power changes allocate nothing.
final class DisplayPipeline {
    let framebuffer: Framebuffer
    let driver: any PanelDriver
    let renderer: ScreenRenderer
    private let model: WatchModel
    private let loop: any EventLoop
    private let logger: Logger
    /// The board's contrast (lit), and the dimmed one.
    private let contrast: UInt8
    private let dimContrast: UInt8
    private var renderPending = false
    private var renderWork: (() -> Void)!
    /// Light the panel after the next flush (it woke up dark).
    private var lightAfterRender = false
    private var displayFailing = false
    /// Redraws Now Playing when its progress next changes on the panel.
    private var progressTimer: DeadlineTimer!

    init(model: WatchModel, loop: any EventLoop, logger: Logger, renderer: ScreenRenderer, framebuffer: Framebuffer,
         driver: any PanelDriver, contrast: UInt8, dimContrast: UInt8) {
        self.model = model
        self.loop = loop
        self.logger = logger
        self.renderer = renderer
        self.framebuffer = framebuffer
        self.driver = driver
        self.contrast = contrast
        self.dimContrast = dimContrast
        renderWork = { [unowned(unsafe) self] in self.render() }
        progressTimer = DeadlineTimer(loop: loop) { [unowned(unsafe) self] in self.requestRender() }
    }

    /// Initialises the panel at the board's contrast.
    func start(rotation: Rotation) throws(HALError) {
        try driver.initialize(rotation: rotation)
        try? driver.setContrast(contrast)
    }

    /// Coalesces redraws: many events in one loop iteration draw once.
    func requestRender() {
        guard !renderPending else { return }
        renderPending = true
        loop.deferWork(renderWork)
    }

    /// Draws the current screen and sends the changed bytes to the panel.
    /// Dark, it draws nothing: waking draws the state of that moment.
    func render() {
        renderPending = false
        armProgressRedraw()
        guard model.displayPower != .off else { return }
        let status = StatusInfo(
            time: model.wallClock.time(at: loop.now), link: model.link, unread: model.unread,
            doNotDisturb: model.isDoNotDisturbOn, battery: model.watchBattery)
        var nowPlaying: NowPlayingContent?
        if case .nowPlaying = model.screen { nowPlaying = model.nowPlayingContent(now: loop.now) }
        var report: StatusReport?
        if case .status = model.screen { report = model.statusReport(now: loop.now) }
        var mutedApps: MutedAppsView?
        if case .mutedApps = model.screen { mutedApps = MutedAppsView(mutes: model.appMutes, now: loop.now) }
        var timekeeping: TimekeepingView?
        switch model.screen {
        case .alarms, .timer, .stopwatch:
            timekeeping = TimekeepingView(alarms: model.alarms, timer: model.countdown, stopwatch: model.stopwatch, now: loop.now)
        default: break
        }
        renderer.render(
            model.screen, status: status, notifications: model.notifications, into: framebuffer,
            callNotice: model.callNotice, actionNotice: model.actionNotice, nowPlaying: nowPlaying,
            feeds: model.feeds, replies: model.userSettings.replies, report: report, mutedApps: mutedApps,
            timekeeping: timekeeping)
        // The driver moves the picture against burn-in (a vertical step
        // is one command; a horizontal one goes with the next screen change).
        driver.setShift(PanelShift(x: model.pixelShift.x, y: model.pixelShift.y))
        do {
            _ = try driver.flush(framebuffer, full: false)
            if displayFailing {
                displayFailing = false
                logger.notice("display answers again")
            }
        } catch {
            displayFailed(error)
        }
        guard lightAfterRender else { return }
        lightAfterRender = false
        do { try driver.setDisplayOn(true) } catch { displayFailed(error) }
    }

    /// Puts the panel in the model's power state.
    func apply(_ state: DisplayPowerState) {
        do {
            switch state {
            case .on:
                try driver.setContrast(contrast)
                if !driver.isOn {
                    // Nothing was drawn while dark: draw the current state
                    // now, and light the panel once it is on the glass.
                    lightAfterRender = true
                    requestRender()
                }
            case .dimmed:
                try driver.setContrast(dimContrast)
            case .off:
                lightAfterRender = false
                armProgressRedraw()
                try driver.setDisplayOn(false)
            }
        } catch {
            displayFailed(error)
        }
    }

    /// Leaves the panel safe (off, unless it persists).
    func shutdown() { try? driver.shutdown() }

    /// Keeps the progress timer at the next instant Now Playing's elapsed
    /// text or bar changes on the panel, while it is on screen and lit;
    /// otherwise disarmed (dark, it is drawn from the state on waking).
    private func armProgressRedraw() {
        var next: MonotonicInstant?
        if case .nowPlaying = model.screen, model.displayPower != .off {
            let bar = renderer.nowPlayingBarWidth(durationMilliseconds: model.media.durationMilliseconds)
            next = MediaProgress.nextChange(model.media, after: loop.now, barWidth: bar)
        }
        progressTimer.follow(next)
    }

    private func displayFailed(_ error: HALError) {
        // Logged once per episode; the watch keeps running (the motor and the
        // buttons still work) and the next successful flush says so.
        if !displayFailing { logger.error("display: \(error)") }
        displayFailing = true
    }
}
