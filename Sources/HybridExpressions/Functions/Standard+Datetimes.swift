import Foundation

extension FunctionLibrary {
    /// Datetimes (UTC, millisecond precision), their getters and setters, formatting, and
    /// intervals given in milliseconds.
    mutating func registerDatetimes() {
        register("parseUnixTime", [.integer]) { args throws(ExpressionError) in
            try .datetime(secondsSince1970: args.integer(0))
        }
        register("parseUnixTimeAsLocal", [.integer]) { args throws(ExpressionError) in
            try .datetime(secondsSince1970: args.integer(0))
        }
        register("nowLocal", []) { _ in .datetime(Date()) }
        register("addMillis", [.datetime, .integer]) { args throws(ExpressionError) in
            let (sum, overflow) = CivilTime.milliseconds(args.datetime(0)).addingReportingOverflow(args.integer(1))
            guard !overflow else { throw DatetimeRange.error }
            return .datetime(try DatetimeRange.date(milliseconds: sum))
        }

        let getters: [(String, @Sendable (CivilTime) -> Int)] = [
            ("getYear", { $0.year }), ("getMonth", { $0.month }), ("getDay", { $0.day }),
            ("getDayOfWeek", { $0.isoWeekday }),
            ("getHours", { $0.hour }), ("getMinutes", { $0.minute }), ("getSeconds", { $0.second }),
            ("getMillis", { $0.millisecond }),
        ]
        for (name, getter) in getters {
            register(name, [.datetime]) { args in .integer(getter(CivilTime(args.datetime(0)))) }
        }

        typealias Setter = @Sendable (inout CivilTime, Int) throws(ExpressionError) -> Void
        func ranged(_ what: String, _ range: ClosedRange<Int>, _ set: @escaping @Sendable (inout CivilTime, Int) -> Void) -> Setter {
            { time, value throws(ExpressionError) in
                guard range.contains(value) else {
                    throw ExpressionError("Expecting \(what) in [\(range.lowerBound)..\(range.upperBound)], instead got \(value).")
                }
                set(&time, value)
            }
        }
        let setters: [(String, Setter)] = [
            // Years beyond the datetime range are refused before any arithmetic on them.
            ("setYear", ranged("year", DatetimeRange.years) { $0.year = $1 }),
            ("setMonth", ranged("month", 1...12) { $0.month = $1 }),
            ("setDay", { time, value throws(ExpressionError) in
                // -1 is the day before the first: the last day of the previous month.
                if value == -1 {
                    let shifted = CivilTime.date(days: CivilTime.days(year: time.year, month: time.month, day: 1) - 1)
                    (time.year, time.month, time.day) = shifted
                    return
                }
                guard value >= 1, value <= CivilTime.daysInMonth(year: time.year, month: time.month) else {
                    throw ExpressionError("Unable to set day \(value) for date \(DateFormatting.string(try time.date())).")
                }
                time.day = value
            }),
            ("setHours", ranged("hours", 0...23) { $0.hour = $1 }),
            ("setMinutes", ranged("minutes", 0...59) { $0.minute = $1 }),
            ("setSeconds", ranged("seconds", 0...59) { $0.second = $1 }),
            ("setMillis", ranged("millis", 0...999) { $0.millisecond = $1 }),
        ]
        for (name, setter) in setters {
            register(name, [.datetime, .integer]) { args throws(ExpressionError) in
                var time = CivilTime(args.datetime(0))
                try setter(&time, args.integer(1))
                // Setting the year may leave Feb 29 in a common year: clamp like a calendar does.
                time.day = min(time.day, CivilTime.daysInMonth(year: time.year, month: time.month))
                return .datetime(try time.date())
            }
        }

        register("formatDateAsUTC", [.datetime, .string]) { args throws(ExpressionError) in
            .string(try DatePattern.format(args.datetime(0), args.string(1), locale: "en-US", local: false))
        }
        register("formatDateAsUTCWithLocale", [.datetime, .string, .string]) { args throws(ExpressionError) in
            .string(try DatePattern.format(args.datetime(0), args.string(1), locale: args.string(2), local: false))
        }
        register("formatDateAsLocal", [.datetime, .string]) { args throws(ExpressionError) in
            .string(try DatePattern.format(args.datetime(0), args.string(1), locale: "en-US", local: true))
        }
        register("formatDateAsLocalWithLocale", [.datetime, .string, .string]) { args throws(ExpressionError) in
            .string(try DatePattern.format(args.datetime(0), args.string(1), locale: args.string(2), local: true))
        }

        // Intervals: a non-negative count of milliseconds taken apart.
        let intervals: [(String, @Sendable (Int) -> Int)] = [
            ("getIntervalSeconds", { $0 / 1000 % 60 }),
            ("getIntervalTotalSeconds", { $0 / 1000 }),
            ("getIntervalMinutes", { $0 / 60_000 % 60 }),
            ("getIntervalTotalMinutes", { $0 / 60_000 }),
            ("getIntervalHours", { $0 / 3_600_000 % 24 }),
            ("getIntervalTotalHours", { $0 / 3_600_000 }),
            ("getIntervalTotalDays", { $0 / 86_400_000 }),
            ("getIntervalTotalWeeks", { $0 / 604_800_000 }),
        ]
        for (name, part) in intervals {
            register(name, [.integer]) { args throws(ExpressionError) in
                guard args.integer(0) >= 0 else { throw ExpressionError("Expecting non-negative number of milliseconds.") }
                return .integer(part(args.integer(0)))
            }
        }
    }
}

/// Date patterns in the Unicode (ICU / Java) notation: `yyyy-MM-dd HH:mm:ss.SSS`,
/// `EEE, MMM d`, quoted literals (`'o''clock'`), with English and Russian names.
enum DatePattern {
    struct Names {
        var months: [String], monthsShort: [String], weekdays: [String], weekdaysShort: [String]
        var era: String, am: String, pm: String
        /// First day of the week as an ISO weekday (Sunday 7) and the days the first week needs.
        var firstWeekday: Int, minimalDays: Int
    }

    static let english = Names(
        months: ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                 "October", "November", "December"],
        monthsShort: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        weekdays: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
        weekdaysShort: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
        era: "AD", am: "AM", pm: "PM", firstWeekday: 7, minimalDays: 1)

    static let russian = Names(
        months: ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
                 "октября", "ноября", "декабря"],
        monthsShort: ["янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."],
        weekdays: ["понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье"],
        weekdaysShort: ["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
        era: "н. э.", am: "AM", pm: "PM", firstWeekday: 1, minimalDays: 4)

    /// Names for a BCP 47 tag: Russian for `ru…`, English otherwise. Week rules follow the
    /// region: Sunday-first for the US, ISO (Monday-first, four days) elsewhere.
    static func names(_ locale: String) -> Names {
        if locale.lowercased().hasPrefix("ru") { return russian }
        var names = english
        let lowered = locale.lowercased()
        if !(lowered.isEmpty || lowered == "en" || lowered.hasSuffix("-us") || lowered.contains("-us-")) {
            names.firstWeekday = 1
            names.minimalDays = 4
        }
        return names
    }

    static func format(_ date: Date, _ pattern: String, locale: String, local: Bool) throws(ExpressionError) -> String {
        let offset = local ? TimeZone.current.secondsFromGMT(for: date) : 0
        let time = CivilTime(date, offset: offset)
        let names = names(locale)
        let chars = Array(pattern)
        var out = ""
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                // '' is a quote; 'text' is literal text (with '' inside for a quote).
                if i + 1 < chars.count, chars[i + 1] == "'" { out.append("'"); i += 2; continue }
                i += 1
                while i < chars.count {
                    if chars[i] == "'" {
                        if i + 1 < chars.count, chars[i + 1] == "'" { out.append("'"); i += 2; continue }
                        break
                    }
                    out.append(chars[i])
                    i += 1
                }
                i += 1
                continue
            }
            guard c.isASCII, c.isLetter else { out.append(c); i += 1; continue }
            var count = 1
            while i + count < chars.count, chars[i + count] == c { count += 1 }
            i += count
            out += try field(c, count, time, names, offset: offset)
        }
        return out
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func field(_ c: Character, _ count: Int, _ t: CivilTime, _ names: Names, offset: Int)
        throws(ExpressionError) -> String
    {
        switch c {
        case "G": return names.era
        case "y", "Y", "u":
            let year = c == "Y" ? weekYear(t, names) : t.year
            if count == 2 { return pad(year % 100, 2) }
            return pad(year, count)
        case "M", "L":
            switch count {
            case 1, 2: return pad(t.month, count)
            case 3: return names.monthsShort[t.month - 1]
            default: return names.months[t.month - 1]
            }
        case "d": return pad(t.day, count)
        case "D": return pad(t.dayOfYear, count)
        case "E":
            return count >= 4 ? names.weekdays[t.isoWeekday - 1] : names.weekdaysShort[t.isoWeekday - 1]
        case "a": return t.hour < 12 ? names.am : names.pm
        case "h": return pad(t.hour % 12 == 0 ? 12 : t.hour % 12, count)
        case "H": return pad(t.hour, count)
        case "K": return pad(t.hour % 12, count)
        case "k": return pad(t.hour == 0 ? 24 : t.hour, count)
        case "m": return pad(t.minute, count)
        case "s": return pad(t.second, count)
        case "S":
            let digits = pad(t.millisecond, 3)
            return count <= 3 ? String(digits.prefix(count)) : digits + String(repeating: "0", count: count - 3)
        case "Z":
            let sign = offset < 0 ? "-" : "+"
            let hours = pad(abs(offset) / 3600, 2), minutes = pad(abs(offset) / 60 % 60, 2)
            if count == 4 { return offset == 0 ? "GMT" : "GMT\(sign)\(hours):\(minutes)" }
            if count == 5 { return offset == 0 ? "Z" : "\(sign)\(hours):\(minutes)" }
            return "\(sign)\(hours)\(minutes)"
        case "z":
            if offset == 0 { return count >= 4 ? "Coordinated Universal Time" : "UTC" }
            let sign = offset < 0 ? "-" : "+"
            return "GMT\(sign)\(pad(abs(offset) / 3600, 2)):\(pad(abs(offset) / 60 % 60, 2))"
        case "w":
            return pad(weekOfYear(t, names).week, count)
        case "W":
            let first = CivilTime.days(year: t.year, month: t.month, day: 1)
            return pad((t.daysSinceEpoch - weekStart(containing: first, names)) / 7 + 1, count)
        default:
            throw ExpressionError("Illegal pattern character '\(c)'.")
        }
    }

    /// The first day of week 1 of the period starting on `first` (days since the epoch).
    private static func weekStart(containing first: Int, _ names: Names) -> Int {
        let weekday = ((first % 7 + 7) % 7 + 3) % 7 + 1
        let index = (weekday - names.firstWeekday + 7) % 7
        let start = first - index
        return 7 - index >= names.minimalDays ? start : start + 7
    }

    private static func weekOfYear(_ t: CivilTime, _ names: Names) -> (week: Int, year: Int) {
        let day = t.daysSinceEpoch
        let thisStart = weekStart(containing: CivilTime.days(year: t.year, month: 1, day: 1), names)
        let nextStart = weekStart(containing: CivilTime.days(year: t.year + 1, month: 1, day: 1), names)
        if day >= nextStart { return (1, t.year + 1) }
        if day < thisStart {
            let previous = weekStart(containing: CivilTime.days(year: t.year - 1, month: 1, day: 1), names)
            return ((day - previous) / 7 + 1, t.year - 1)
        }
        return ((day - thisStart) / 7 + 1, t.year)
    }

    private static func weekYear(_ t: CivilTime, _ names: Names) -> Int { weekOfYear(t, names).year }
}
