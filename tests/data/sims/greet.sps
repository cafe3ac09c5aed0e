SimPoseSPS 1
|Start
N 0 0 0 1 0 0
N 4 1 0 2 0 -2
A nod-bounce
|End
|Start
|End
|Start
|End
Selected 0
f 0 0 0 1 0
m 0 head
t 0 head.bmp
m 1 body
t 1 body.bmp
m 2 lhand
t 2 lhand.bmp
m 3 rhand
t 3 rhand.bmp
f - end
f 1 1 1 1 0
m 0 head
t 0 head.bmp
m 1 body
t 1 body.bmp
m 2 lhand
t 2 lhand.bmp
m 3 rhand
t 3 rhand.bmp
f - end
