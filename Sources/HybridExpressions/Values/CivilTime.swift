import Foundation

/// The datetimes expressions hold: those JavaScript's `Date` can, 100,000,000 days either side
/// of 1970 (years −271,821 to 275,760). Every datetime an expression makes is checked against
/// it, so taking one apart into days, years and milliseconds never overflows.
enum DatetimeRange {
    /// The largest distance from the epoch, in milliseconds.
    static let maximumMilliseconds = 8_640_000_000_000_000
    /// The years a setter accepts (a few more than the range holds, so the edges can be reached).
    static let years = -272_000...276_000
    static let error = ExpressionError("Datetime is out of range (years -271821 to 275760).")

    /// The datetime `milliseconds` after the epoch, or the range error.
    static func date(milliseconds: Int) throws(ExpressionError) -> Date {
        guard (-maximumMilliseconds...maximumMilliseconds).contains(milliseconds) else { throw error }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

extension ExpressionValue {
    /// The datetime `seconds` after 1970-01-01 UTC (a Unix time), or an error outside the
    /// range datetimes have.
    public static func datetime(secondsSince1970 seconds: Int) throws(ExpressionError) -> ExpressionValue {
        let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { throw DatetimeRange.error }
        return .datetime(try DatetimeRange.date(milliseconds: millis))
    }
}

/// A datetime taken apart in UTC (proleptic Gregorian), with whole milliseconds.
struct CivilTime: Equatable {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The civil date of a day count since 1970-01-01.
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        let next = month == 12 ? days(year: year + 1, month: 1, day: 1) : days(year: year, month: month + 1, day: 1)
        return next - days(year: year, month: month, day: 1)
    }

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second, self.millisecond) = (hour, minute, second, millisecond)
    }

    /// `date` shifted by `offset` seconds (a time zone's), taken apart.
    init(_ date: Date, offset: Int = 0) {
        let millis = CivilTime.milliseconds(date) + offset * 1000
        let (dayCount, inDay) = millis.quotientAndRemainder(dividingBy: 86_400_000)
        let days = inDay < 0 ? dayCount - 1 : dayCount
        let ms = inDay < 0 ? inDay + 86_400_000 : inDay
        (year, month, day) = CivilTime.date(days: days)
        hour = ms / 3_600_000
        minute = ms / 60_000 % 60
        second = ms / 1000 % 60
        millisecond = ms % 1000
    }

    /// Whole milliseconds since the epoch, clamped to ``DatetimeRange`` (a host may hand in
    /// any `Date`; the arithmetic on days and years relies on the range).
    static func milliseconds(_ date: Date) -> Int {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        let limit = Double(DatetimeRange.maximumMilliseconds)
        guard !millis.isNaN else { return 0 }
        return Int(min(max(millis, -limit), limit))
    }

    var daysSinceEpoch: Int { CivilTime.days(year: year, month: month, day: day) }

    /// The datetime put back together; refused outside ``DatetimeRange`` (a year set near its
    /// end). Fields are within their ranges, so the sum cannot overflow.
    func date() throws(ExpressionError) -> Date {
        let millis = daysSinceEpoch * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond
        return try DatetimeRange.date(milliseconds: millis)
    }

    /// ISO day of the week: Monday 1 … Sunday 7.
    var isoWeekday: Int {
        let d = (daysSinceEpoch % 7 + 7) % 7  // 1970-01-01 was a Thursday (4)
        return (d + 3) % 7 + 1
    }

    var dayOfYear: Int { daysSinceEpoch - CivilTime.days(year: year, month: 1, day: 1) + 1 }
}

