pub struct SeatView;
