/// A decoded picture that lives in dmabuf memory (a VA-API surface exported
/// as DRM PRIME), described the way the kernel imports it: the layout of
/// libav's `AVDRMFrameDescriptor`, which a KMS output turns into
/// `drmPrimeFDToHandle` + `drmModeAddFB2WithModifiers`.
///
/// The file descriptors belong to the frame's storage: they stay open for as
/// long as the `VideoFrame` carrying the storage is alive, and are closed by
/// it. An importer must not close them, and must keep the frame alive until
/// the display has stopped scanning out the framebuffer made from them.
public struct DMABufDescriptor: Sendable, Equatable {
    /// One dmabuf (one fd); planes point into it by index.
    public struct Object: Sendable, Equatable {
        public let fd: Int32
        /// Bytes; 0 when the exporter does not know.
        public let size: Int
        /// DRM format modifier (tiling, compression); DRM_FORMAT_MOD_LINEAR is 0.
        public let modifier: UInt64

        public init(fd: Int32, size: Int, modifier: UInt64) {
            self.fd = fd
            self.size = size
            self.modifier = modifier
        }
    }

    public struct Plane: Sendable, Equatable {
        /// Index into `objects`.
        public let object: Int
        /// Bytes from the start of the object to the plane's first row.
        public let offset: Int
        /// Bytes from one row to the next.
        public let pitch: Int

        public init(object: Int, offset: Int, pitch: Int) {
            self.object = object
            self.offset = offset
            self.pitch = pitch
        }
    }

    /// One image of the frame in a DRM fourcc (NV12 is one layer with two
    /// planes; some drivers export it as an R8 layer and a GR88 layer).
    public struct Layer: Sendable, Equatable {
        /// DRM fourcc, e.g. DRM_FORMAT_NV12 ("NV12" in little-endian ASCII).
        public let format: UInt32
        public let planes: [Plane]

        public init(format: UInt32, planes: [Plane]) {
            self.format = format
            self.planes = planes
        }
    }

    public let objects: [Object]
    public let layers: [Layer]
    /// The picture's size in pixels (the surface may be larger, for alignment).
    public let width: Int
    public let height: Int

    public init(objects: [Object], layers: [Layer], width: Int, height: Int) {
        self.objects = objects
        self.layers = layers
        self.width = width
        self.height = height
    }
}

/// The storage of a frame whose pixels are in dmabuf memory and have no
/// CPU-visible planes (`VideoFrame.planes` is empty, its `pixelFormat` is
/// `.hardware`). An output that can scan it out says so in
/// `ScanOutOutput.canScanOut(_:dmabuf:)`; for any other output the pipeline calls
/// `download()` and presents the copy.
///
/// Threading: `dmabuf` may be read from any thread; `download()` is called on
/// the presenter thread.
public protocol DMABufStorage: FrameStorage {
    var dmabuf: DMABufDescriptor { get }

    /// Copies the picture into CPU memory (a GPU-to-CPU transfer, which the
    /// pipeline counts as a copy in its stats).
    /// - Returns: a software frame with the same size and timing as `frame`
    ///   (a planar or semi-planar YUV format such as NV12 or P010).
    /// - Throws: the backend's error naming the call that failed.
    func download(_ frame: VideoFrame) throws -> VideoFrame
}
