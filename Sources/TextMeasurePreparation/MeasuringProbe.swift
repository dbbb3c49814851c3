import CTextICU

/// How many calls into ICU and HarfBuzz the calling thread has made: a probe for
/// tests of the rule that laying out a prepared text measures nothing. It counts in
/// debug builds only (where tests run); in a release build it costs nothing and reads 0.
package enum MeasuringProbe {
    static var callsOnThisThread: UInt64 { ctx_measuring_calls() }
}
