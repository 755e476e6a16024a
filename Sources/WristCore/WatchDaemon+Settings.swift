import BoardConfig
import WearerSettings
import HAL
import LinuxHAL
import Loop
import TextFormat
import Watch
import WatchFiles

extension WatchDaemon {
    /// The settings file at start-up: problems stop the daemon, listed like
    /// a board file's (a SIGHUP checks the file first, so a running watch
    /// never stops over one). After a restart in place it is the bytes the
    /// previous image checked (`RestartHandoff`), not the file again: a
    /// file replaced in the meantime waits for the next SIGHUP.
    func loadUserSettings() throws(WristCoreFailure) -> UserSettings {
        let path = SettingsFile.settingsPath(stateDirectory: stateDirectory)
        var bytes: [UInt8]?
        switch RestartHandoff.take(RestartHandoff.settingsVariable, limit: UserSettings.maxFileBytes) {
        case .bytes(let handed): bytes = handed
        case .absent: bytes = nil
        case .nothing:
            do throws(HALError) { bytes = try SettingsFile.read(stateDirectory: stateDirectory) } catch {
                logger.warning("cannot use \(path): \(error.reason); running with the default settings")
            }
        }
        do throws(BoardError) {
            let settings = try SettingsFile.parse(bytes, stateDirectory: stateDirectory)
            if settings.source != UserSettings.defaults.source {
                logger.info("settings from \(settings.source): \(settings.apps.count) app rule(s), \(settings.patterns.count) pattern(s)")
            }
            return settings
        } catch {
            throw WristCoreFailure(error.description, exitCode: WristCoreExit.usageOrConfiguration)
        }
    }

    /// Takes up the Do Not Disturb state kept before a restart, and keeps
    /// every change the wearer makes from now on.
    func keepDoNotDisturb(_ watch: WatchController, loop: any EventLoop) {
        let files = AtomicFileStore()
        let directory = stateDirectory
        let path = SettingsFile.doNotDisturbPath(stateDirectory: directory)
        do throws(HALError) {
            if let bytes = try files.read(path) {
                switch SettingsFile.decode(bytes) {
                case .untilTurnedOff?:
                    watch.restoreDoNotDisturb(remaining: nil)
                case .until(let end)?:
                    let remaining = end.duration(since: loop.wallClockNow)
                    // "For 1 hour" cannot have more left (a few minutes' slack for clock adjustments).
                    if remaining > WatchModel.doNotDisturbTimedDuration + .seconds(300) {
                        logger.warning("\(path): a deadline \(remaining.components.seconds) s ahead, longer than Do Not Disturb lasts; Do Not Disturb is off")
                    } else {
                        watch.restoreDoNotDisturb(remaining: remaining)
                    }
                case nil:
                    logger.warning("\(path): not a Do Not Disturb state; Do Not Disturb is off")
                }
                if watch.model.isDoNotDisturbOn { logger.info("Do Not Disturb is on (kept from before the restart)") }
            }
        } catch {
            logger.warning("cannot read \(path): \(error); Do Not Disturb is off")
        }
        let logger = self.logger
        watch.doNotDisturbObserver = { [unowned(unsafe) loop] state in
            do throws(HALError) {
                switch state {
                case .off:
                    try files.remove(path)
                case .untilTurnedOff:
                    try files.ensureDirectory(directory, mode: 0o700)
                    try files.writeAtomically(path, SettingsFile.encode(.untilTurnedOff), mode: 0o600)
                case .until(let end):
                    let wallEnd = loop.wallClockNow.advanced(by: end - loop.now)
                    try files.ensureDirectory(directory, mode: 0o700)
                    try files.writeAtomically(path, SettingsFile.encode(.until(wallEnd)), mode: 0o600)
                }
                logger.info("Do Not Disturb \(state == .off ? "off" : "on")")
            } catch {
                logger.warning("cannot keep the Do Not Disturb state in \(path): \(error) (it is lost on a restart)")
            }
        }
    }

    /// Shows the notification list the state directory kept, and keeps it there from now on.
    func keepHistory(_ watch: WatchController) {
        let file = HistoryFile(stateDirectory: stateDirectory)
        watch.keepHistory(restoring: file.load(logger: logger), storage: .init(
            path: file.path, write: { b throws(HALError) in try file.write(b) }, remove: { () throws(HALError) in try file.remove() }))
    }

    /// The apps muted from the wrist: taken up from the state directory, kept there on every change.
    func keepMutes(_ watch: WatchController, loop: any EventLoop) {
        let file = MutedAppsFile(stateDirectory: stateDirectory)
        watch.model.restoreMutes(file.load(wallNow: loop.wallClockNow, logger: logger), now: loop.now)
        watch.mutesObserver = { [logger, unowned(unsafe) loop] mutes in
            do throws(HALError) { try file.save(mutes, now: loop.now, wallNow: loop.wallClockNow) } catch {
                logger.warning("cannot keep the muted apps in \(file.path): \(error) (they are lost on a restart)")
            }
        }
    }

    /// The wearer's alarms: taken up from the state directory, kept there on every change.
    func keepAlarms(_ watch: WatchController) {
        let file = AlarmsFile(stateDirectory: stateDirectory)
        watch.restoreAlarms(file.load(logger: logger))
        watch.alarmsObserver = { [logger] in do throws(HALError) { try file.save($0) } catch { logger.warning("cannot keep the alarms in \(file.path): \(error)") } }
    }

    /// SIGHUP restarts in place and reads the board and settings files
    /// again, so both are checked first: a file with problems, one that
    /// cannot be read (permissions, a directory, a FIFO, a dangling
    /// symlink, too large) or a board file that is gone is reported line by
    /// line and the daemon keeps running as it is. True when the restart
    /// may go ahead; the checked bytes are then in `checkedForRestart`, for
    /// the new image.
    func reloadAllowed() -> Bool {
        var checked = CheckedFiles()
        if let argument = options.boardArgument {
            do throws(BoardError) {
                checked.board = try ResourcePaths.loadCheckedBoard(argument: argument).bytes
            } catch {
                for p in error.description.split(separator: "\n") { logger.error("\(p)") }
                logger.error("SIGHUP: the board file \(argument) cannot be used: not restarting, still running on the current board")
                return false
            }
        }
        let path = SettingsFile.settingsPath(stateDirectory: stateDirectory)
        do throws(HALError) {
            checked.settings = try SettingsFile.read(stateDirectory: stateDirectory)
        } catch {
            logger.error("SIGHUP: cannot use \(path): \(error.reason): not restarting, keeping the current settings")
            return false
        }
        do throws(BoardError) {
            _ = try SettingsFile.parse(checked.settings, stateDirectory: stateDirectory)
        } catch {
            for p in error.description.split(separator: "\n") { logger.error("\(p)") }
            logger.error("SIGHUP: \(path) has \(error.problems.count + error.uncounted) problem(s): not restarting, keeping the current settings")
            return false
        }
        checkedForRestart = checked
        return true
    }
}
